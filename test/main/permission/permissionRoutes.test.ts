import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  permissionsAddRule,
  permissionsListRules,
  permissionsRevokeRule
} from '@shared/contracts/routes/permissions.routes'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import { until } from '../../helpers/until'

let dir: string
let presenters: Presenters
const open = () => createPresenters(createNodePlatform({ dataDir: dir, log: () => {} }), { log: () => {} })

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'perm-routes-'))
  presenters = open()
})
afterEach(async () => {
  await presenters.dispose()
  rmSync(dir, { recursive: true, force: true })
})

describe('permission routes', () => {
  it('adds, lists and revokes rules, and rules survive a restart', async () => {
    const router = createRouter(presenters)
    const { rule } = await router.call(permissionsAddRule, {
      rule: { kind: 'exec', pattern: 'npm test*', effect: 'allow' }
    })
    await router.call(permissionsAddRule, { rule: { kind: 'read', pattern: '~/notes/**', effect: 'deny' } })
    expect(
      (await router.call(permissionsListRules, {})).rules.map((r) => `${r.effect} ${r.kind}: ${r.pattern}`)
    ).toEqual(['allow exec: npm test*', 'deny read: ~/notes/**'])

    await presenters.dispose()
    presenters = open()
    const reopened = createRouter(presenters)
    expect((await reopened.call(permissionsListRules, {})).rules).toHaveLength(2)
    expect(await reopened.call(permissionsRevokeRule, { id: rule.id })).toEqual({ revoked: true })
    expect(await reopened.call(permissionsRevokeRule, { id: rule.id })).toEqual({ revoked: false })
    expect((await reopened.call(permissionsListRules, {})).rules.map((r) => r.pattern)).toEqual([
      '~/notes/**'
    ])
  })

  it('rejects a bad rule with a clear error and stores nothing', async () => {
    const router = createRouter(presenters)
    const result = await router.invoke(
      'permissions.addRule',
      { rule: { kind: 'shell', pattern: 'x' } },
      { transport: 'test', clientId: 't' }
    )
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect((await router.call(permissionsListRules, {})).rules).toEqual([])
  })

  it("kills a deleted session's background processes", async () => {
    const session = presenters.sessions.create({})
    const ctx = { sessionId: session.id, workspaceDir: session.workspaceDir, permissionMode: 'default' }
    const started = await presenters.tools.callTool(
      { id: 'c1', name: 'exec', arguments: JSON.stringify({ command: 'sleep 30', background: true }) },
      ctx
    )
    const processId = (started.rawData.toolResult.data as { processId: string }).processId
    const pid = presenters.tools.processes.info(session.id, processId).pid!
    presenters.sessions.purge(session.id)
    await until(
      () => {
        try {
          process.kill(pid, 0)
          return false
        } catch {
          return true
        }
      },
      { what: 'the background process is gone' }
    )
    expect(() => process.kill(pid, 0)).toThrow()
    expect(presenters.tools.processes.list(session.id)).toEqual([])
  })
})
