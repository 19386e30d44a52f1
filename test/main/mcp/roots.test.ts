import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createHarness as createToolHarness, type Harness as ToolHarness } from '../tools/helpers'
import { createHarness, testServerInput, type Harness } from './harness'

let mcpH: Harness | undefined
let toolH: ToolHarness | undefined

afterEach(async () => {
  await toolH?.close()
  await mcpH?.close()
  toolH = undefined
  mcpH = undefined
})

interface RootsSeen {
  roots: { uri: string; name?: string }[]
  changes: number
}

describe('roots', () => {
  it('are the workspace of the chat calling, and change (with roots/list_changed) with it', async () => {
    mcpH = createHarness()
    await mcpH.mcp.addServer({ ...testServerInput('t'), enabled: false })
    await mcpH.mcp.startServer('t')
    toolH = createToolHarness({ mcp: mcpH.mcp })
    const tools = toolH
    const other = join(tools.root, 'other-project')
    const moved = join(tools.root, 'moved-project')
    mkdirSync(other)
    mkdirSync(moved)
    const seen = async (sessionId: string, workspaceDir: string): Promise<RootsSeen> => {
      await tools.tools.getAllToolDefinitions({ ...tools.ctx, sessionId, workspaceDir })
      const result = await tools.call(
        't__roots',
        {},
        { sessionId, workspaceDir, permissionMode: 'full_access' }
      )
      return JSON.parse(tools.text(result)) as RootsSeen
    }
    const root = (dir: string) => ({ uri: pathToFileURL(dir).href, name: dir.split('/').at(-1) })

    const first = await seen('a', tools.workspace)
    expect(first.roots).toEqual([root(tools.workspace)])
    expect(first.changes).toBe(1)

    // The same chat again: nothing changed, nothing announced.
    expect((await seen('a', tools.workspace)).changes).toBe(1)

    // A call from another chat's workspace switches the connection's roots to it.
    const fromB = await seen('b', other)
    expect(fromB.roots).toEqual([root(other)])
    expect(fromB.changes).toBe(2)

    // Chat b moves to another folder: the server it used last is told at once.
    await mcpH.mcp.sessionWorkspaceChanged('b', [moved])
    const listed = await mcpH.mcp.callTool('t', 'roots', {})
    const afterMove = JSON.parse(listed.content[0].type === 'text' ? listed.content[0].text : '') as RootsSeen
    expect(afterMove.roots).toEqual([root(moved)])
    expect(afterMove.changes).toBe(3)

    // A chat that used nothing yet changing folders announces nothing.
    await mcpH.mcp.sessionWorkspaceChanged('a', [other])
    expect((await seen('b', moved)).changes).toBe(3)
  }, 30_000)
})
