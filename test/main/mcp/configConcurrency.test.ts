import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

// Each server has a credential-looking env value, so adding it awaits the secret store: the
// moment another change can land in between.
const withSecret = (name: string, token: string) => ({
  name,
  type: 'stdio' as const,
  command: 'node',
  env: { API_TOKEN: token },
  enabled: false
})

describe('MCP config under concurrent changes', () => {
  it('keeps every server added at the same time, each with its own secret', async () => {
    h = createHarness()
    const harness = h
    const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon']
    await Promise.all(names.map((name) => harness.mcp.addServer(withSecret(name, `token-${name}`))))
    expect(
      harness.mcp
        .listServers()
        .map((s) => s.id)
        .sort()
    ).toEqual([...names].sort())
    for (const name of names)
      expect((await harness.mcp.store.resolve(name)).env.API_TOKEN).toBe(`token-${name}`)
  })

  it('gives servers with the same name different ids, and secrets do not cross', async () => {
    h = createHarness()
    const harness = h
    const added = await Promise.all(
      [1, 2, 3].map((n) => harness.mcp.addServer(withSecret('Same Name', `token-${n}`)))
    )
    expect(new Set(added.map((s) => s.id)).size).toBe(3)
    const tokens = await Promise.all(
      added.map(async (s) => (await harness.mcp.store.resolve(s.id)).env.API_TOKEN)
    )
    expect(tokens).toEqual(['token-1', 'token-2', 'token-3'])
  })

  it('an update and an add at the same time both land', async () => {
    h = createHarness()
    const harness = h
    await harness.mcp.addServer({ ...withSecret('first', 'one'), id: 'first' })
    await Promise.all([
      harness.mcp.updateServer('first', { env: { API_TOKEN: 'changed' }, description: 'updated' }),
      harness.mcp.addServer({ ...withSecret('second', 'two'), id: 'second' })
    ])
    expect(harness.mcp.getServer('first').description).toBe('updated')
    expect((await harness.mcp.store.resolve('first')).env.API_TOKEN).toBe('changed')
    expect(harness.mcp.listServers().map((s) => s.id)).toEqual(['first', 'second'])
  })

  it('two launches seeding the built-in servers at once add each of them once', async () => {
    h = createHarness()
    await Promise.all([h.mcp.startEnabledServers(), h.mcp.startEnabledServers()])
    const ids = h.mcp.listServers().map((s) => s.id)
    expect(ids).toContain('deepchat-time')
    expect(new Set(ids).size).toBe(ids.length)
  })
})
