import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { mcpAdd, mcpCallTool, mcpStart } from '@shared/contracts/routes/mcp.routes'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createRouter } from '../../../src/main/routes'
import { testServerInput } from './harness'

let presenters: Presenters | undefined
let dir: string | undefined
afterEach(async () => {
  await presenters?.dispose()
  if (dir) rmSync(dir, { recursive: true, force: true })
  presenters = undefined
})

describe('the settings test call goes through the permission services', () => {
  it('asks without a rule, runs with a remembered mcp rule or autoApproveTools, and deny rules win', async () => {
    dir = mkdtempSync(join(tmpdir(), 'mcp-perm-'))
    presenters = createPresenters(createNodePlatform({ dataDir: dir, log: () => {} }), { log: () => {} })
    const router = createRouter(presenters)
    await router.call(mcpAdd, {
      server: { ...testServerInput('t'), enabled: false, autoApproveTools: ['structured'] }
    })
    await router.call(mcpStart, { serverId: 't' })

    const asked = await router
      .call(mcpCallTool, { serverId: 't', toolName: 'echo', args: { message: 'hi' } })
      .catch((e) => e)
    expect(asked).toMatchObject({ code: 'permission_required' })
    expect(asked.details).toMatchObject({
      type: 'mcp',
      server: 't',
      originalTool: 'echo',
      reason: 'Call MCP tool echo on server t',
      reasonCodes: [{ code: 'mcp_call', params: { tool: 'echo', server: 't' } }],
      suggestedRule: { kind: 'mcp', pattern: 't/echo' }
    })

    // The user's "Allow once" on the panel runs this one call and remembers nothing.
    const once = await router.call(mcpCallTool, {
      serverId: 't',
      toolName: 'echo',
      args: { message: 'once' },
      allowOnce: true
    })
    expect(once.result.content).toEqual([{ type: 'text', text: 'echo: once' }])
    expect(presenters.permissions.listRules()).toEqual([])
    await expect(
      router.call(mcpCallTool, { serverId: 't', toolName: 'echo', args: { message: 'again' } })
    ).rejects.toMatchObject({ code: 'permission_required' })

    presenters.permissions.addRule({ kind: 'mcp', pattern: 't/echo', effect: 'allow' })
    const { result } = await router.call(mcpCallTool, {
      serverId: 't',
      toolName: 'echo',
      args: { message: 'hi' }
    })
    expect(result.content).toEqual([{ type: 'text', text: 'echo: hi' }])

    expect(
      (await router.call(mcpCallTool, { serverId: 't', toolName: 'structured', args: {} })).result
        .structuredContent
    ).toEqual({ total: 42 })
    presenters.permissions.addRule({ kind: 'mcp', pattern: 't/*', effect: 'deny' })
    await expect(
      router.call(mcpCallTool, { serverId: 't', toolName: 'structured', args: {} })
    ).rejects.toMatchObject({
      code: 'permission_denied'
    })
    // A deny rule wins over "Allow once" too.
    await expect(
      router.call(mcpCallTool, { serverId: 't', toolName: 'echo', args: { message: 'x' }, allowOnce: true })
    ).rejects.toMatchObject({ code: 'permission_denied' })
  })
})
