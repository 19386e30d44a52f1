import { afterEach, describe, expect, it } from 'vitest'
import { EventHub } from '../../../src/main/bridge/events'
import { chatStreamPaused } from '@shared/contracts/events/chat.events'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import { DesktopShell } from '../../../src/main/electron/desktopShell'
import { notifyWhenWaiting } from '../../../src/main/electron/attention'
import { shellText } from '../../../src/main/electron/shellText'
import type { UpdateFeed } from '../../../src/main/electron/updates/updateMachine'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()
const open: Presenters[] = []
afterEach(async () => {
  for (const presenters of open.splice(0)) await presenters.dispose()
})

const silentFeed: UpdateFeed = {
  check: async () => {},
  download: async () => {},
  quitAndInstall: () => {},
  subscribe: () => () => {}
}
const link = `deepchat-desk://mcp/add?config=${encodeURIComponent(JSON.stringify({ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'], disabled: true }))}`

function shell(mode: 'dev' | 'packaged' = 'dev', restartApp: () => void = () => {}) {
  return new DesktopShell({
    mode,
    updateSupported: true,
    createUpdateFeed: () => silentFeed,
    shortcuts: { register: () => true, unregister: () => {} },
    showWindow: () => {},
    restartApp,
    log: () => {}
  })
}

function backEnd(desktop?: DesktopShell) {
  const platform = { ...createNodePlatform({ dataDir: tempDir(), log: () => {} }), desktop }
  const presenters = createPresenters(platform, { log: () => {} })
  open.push(presenters)
  desktop?.connect(presenters.events, presenters.config.getSettings())
  const router = createRouter(presenters)
  const call = (route: string, input: unknown) =>
    router.invoke(route, input, { transport: 'test', clientId: 't' })
  return { presenters, call }
}

describe('desktop shell routes', () => {
  it('restarts the desktop app once a restore is staged, and the headless host asks the user to', async () => {
    let restarted!: () => void
    const restart = new Promise<void>((resolve) => (restarted = resolve))
    const desktop = backEnd(shell('packaged', () => restarted()))
    const made = await desktop.call('data.backup', { includeSecrets: false })
    expect(made).toMatchObject({ ok: true })
    const path = made.ok ? (made.data as { path: string }).path : ''
    expect(await desktop.call('data.restoreBackup', { path })).toMatchObject({
      ok: true,
      data: { restarting: true }
    })
    await restart

    // A restore takes only a backup its own list shows: the headless host makes its own.
    const headless = backEnd()
    const own = await headless.call('data.backup', { includeSecrets: false })
    const ownPath = own.ok ? (own.data as { path: string }).path : ''
    expect(await headless.call('data.restoreBackup', { path: ownPath })).toMatchObject({
      ok: true,
      data: { restarting: false }
    })
  })

  it('keeps a link that arrived before the back end and announces later ones', async () => {
    const desktop = shell()
    const early = desktop.deepLinks.receive(link)
    const { presenters, call } = backEnd(desktop)
    const announced: string[] = []
    presenters.events.subscribe(
      (name, payload) =>
        name === 'app.deepLink.received' &&
        announced.push((payload as { request: { id: string } }).request.id)
    )
    const later = desktop.deepLinks.receive(link)
    expect(announced).toEqual([later.id])
    const status = await call('app.getDesktopStatus', {})
    expect(status).toMatchObject({
      ok: true,
      data: {
        update: { state: 'disabled', reason: 'development' },
        shortcut: { accelerator: 'CommandOrControl+Shift+D', registered: true }
      }
    })
    expect(
      (status as { data: { pendingDeepLinks: { id: string }[] } }).data.pendingDeepLinks.map((r) => r.id)
    ).toEqual([early.id, later.id])
  })

  it('adds the servers of a link only when the user accepts it, once', async () => {
    const desktop = shell()
    const { presenters, call } = backEnd(desktop)
    const declined = desktop.deepLinks.receive(link)
    expect(await call('app.resolveDeepLink', { id: declined.id, accept: false })).toEqual({
      ok: true,
      data: { added: [], skipped: [] }
    })
    expect(presenters.mcp.listServers().some((s) => s.name === 'fetch')).toBe(false)
    const accepted = desktop.deepLinks.receive(link)
    expect(await call('app.resolveDeepLink', { id: accepted.id, accept: true })).toEqual({
      ok: true,
      data: { added: ['fetch'], skipped: [] }
    })
    expect(presenters.mcp.listServers().find((s) => s.name === 'fetch')).toMatchObject({
      command: 'uvx',
      enabled: false
    })
    expect(await call('app.resolveDeepLink', { id: accepted.id, accept: true })).toMatchObject({
      ok: false,
      error: { code: 'deep_link_not_pending' }
    })
  })

  it('answers for the missing desktop in the headless host', async () => {
    const { call } = backEnd()
    expect(await call('app.getDesktopStatus', {})).toEqual({
      ok: true,
      data: { update: { state: 'disabled', reason: 'headless' }, shortcut: null, pendingDeepLinks: [] }
    })
    expect(await call('app.installUpdate', {})).toEqual({ ok: true, data: { restarting: false } })
    expect(await call('app.resolveDeepLink', { id: 'x', accept: true })).toMatchObject({
      ok: false,
      error: { code: 'deep_link_not_pending' }
    })
  })
})

describe('waiting-for-answer notifications', () => {
  const paused = { sessionId: 's1', messageId: 'm1', runId: 'r1', seq: 1, interactions: [] }

  it('notifies when a chat waits for the user while the window is in the background', () => {
    const events = new EventHub()
    const shown: string[] = []
    let focused = false
    notifyWhenWaiting({
      events,
      windowFocused: () => focused,
      notify: (title, body) => shown.push(`${title} / ${body}`),
      text: () => shellText('en-US')
    })
    events.emit(chatStreamPaused, paused)
    expect(shown).toEqual([
      'DeepChat Desk is waiting for you / A chat needs your answer before it can go on.'
    ])
    focused = true
    events.emit(chatStreamPaused, paused)
    expect(shown).toHaveLength(1)
  })
})
