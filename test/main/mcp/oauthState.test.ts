import { afterEach, describe, expect, it } from 'vitest'
import { mcpAdd, mcpOAuthSignOut, mcpOAuthState } from '@shared/contracts/routes/mcp.routes'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import { McpOAuthProvider } from '../../../src/main/presenter/mcpPresenter/oauth'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()
const open: Presenters[] = []
afterEach(async () => {
  for (const p of open.splice(0)) await p.dispose()
})

function start() {
  const presenters = createPresenters(createNodePlatform({ dataDir: tempDir(), log: () => {} }), {
    log: () => {}
  })
  open.push(presenters)
  return { presenters, router: createRouter(presenters) }
}

// Disabled servers: these tests look at stored state only and never connect.
const remote = { name: 'Remote', type: 'http' as const, url: 'http://127.0.0.1:9/mcp', enabled: false }

describe('MCP OAuth state routes', () => {
  it('reports sign-in only for remote servers without a static Authorization header', async () => {
    const { router } = start()
    const http = (await router.call(mcpAdd, { server: remote })).server
    const withToken = (
      await router.call(mcpAdd, {
        server: { ...remote, name: 'Static', headers: { Authorization: 'Bearer abc' } }
      })
    ).server
    const local = (
      await router.call(mcpAdd, { server: { name: 'Local', type: 'stdio', command: 'node', enabled: false } })
    ).server
    expect((await router.call(mcpOAuthState, { serverId: http.id })).oauth).toEqual({
      applicable: true,
      signedIn: false
    })
    expect((await router.call(mcpOAuthState, { serverId: withToken.id })).oauth).toEqual({
      applicable: false,
      signedIn: false
    })
    expect((await router.call(mcpOAuthState, { serverId: local.id })).oauth).toEqual({
      applicable: false,
      signedIn: false
    })
    await expect(router.call(mcpOAuthState, { serverId: 'missing' })).rejects.toMatchObject({
      code: expect.any(String)
    })
  })

  it('shows stored tokens as signed in, and signing out forgets them', async () => {
    const { router, presenters } = start()
    const { server } = await router.call(mcpAdd, { server: remote })
    const key = McpOAuthProvider.secretKey(server.id)
    await presenters.config.setSecret(
      key,
      JSON.stringify({ tokens: { access_token: 'tok', token_type: 'Bearer' } })
    )
    expect((await router.call(mcpOAuthState, { serverId: server.id })).oauth.signedIn).toBe(true)

    const out = await router.call(mcpOAuthSignOut, { serverId: server.id })
    expect(out.oauth).toEqual({ applicable: true, signedIn: false })
    expect(out.server.status.state).toBe('stopped')
    expect(await presenters.config.getSecret(key)).toBeUndefined()
  })

  it('treats an unreadable stored value as signed out', async () => {
    const { router, presenters } = start()
    const { server } = await router.call(mcpAdd, { server: remote })
    await presenters.config.setSecret(McpOAuthProvider.secretKey(server.id), '{not json')
    expect((await router.call(mcpOAuthState, { serverId: server.id })).oauth).toEqual({
      applicable: true,
      signedIn: false
    })
  })
})
