import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { defineRoute } from '@shared/contracts/define'
import { Router } from '../../../src/main/bridge/router'
import { EventHub } from '../../../src/main/bridge/events'

// The Electron binary is not available to tests; ipcMain is replaced by a recorder so the
// transport's own logic (sender checks, routing, event fan-out) runs for real.
const handlers = new Map<string, (event: unknown, message: unknown) => Promise<unknown>>()
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: (event: unknown, message: unknown) => Promise<unknown>) =>
      handlers.set(channel, fn),
    removeHandler: (channel: string) => handlers.delete(channel)
  }
}))

const { attachIpcTransport, ROUTE_CHANNEL, EVENT_CHANNEL } =
  await import('../../../src/main/electron/ipcTransport')

const ping = defineRoute({
  name: 'test.ping',
  input: z.object({}),
  output: z.object({ pong: z.literal(true) })
})
const APP_URL = 'file:///app/out/renderer/index.html'

function fakeWindow(id: number) {
  const mainFrame = { url: APP_URL }
  const sent: unknown[] = []
  return {
    sent,
    mainFrame,
    window: {
      isDestroyed: () => false,
      webContents: {
        id,
        mainFrame,
        send: (channel: string, message: unknown) => sent.push({ channel, message })
      }
    }
  }
}

function setup() {
  const router = new Router()
  router.handle(ping, () => ({ pong: true as const }))
  const events = new EventHub()
  const win = fakeWindow(1)
  const detach = attachIpcTransport({
    router,
    events,
    windows: () => [win.window as never],
    isTrustedUrl: (url) => url.split('#')[0] === APP_URL
  })
  const call = (event: unknown) => handlers.get(ROUTE_CHANNEL)!(event, { route: 'test.ping', input: {} })
  return { win, events, detach, call }
}

describe('Electron IPC transport', () => {
  it('routes calls from the main frame of our window', async () => {
    const { win, call, detach } = setup()
    const event = { sender: { id: 1, mainFrame: win.mainFrame }, senderFrame: win.mainFrame }
    expect(await call(event)).toEqual({ ok: true, data: { pong: true } })
    detach()
  })

  it('refuses a sub-frame, a foreign page and an unknown webContents', async () => {
    const { win, call, detach } = setup()
    const iframe = { url: APP_URL }
    expect(await call({ sender: { id: 1, mainFrame: win.mainFrame }, senderFrame: iframe })).toMatchObject({
      ok: false,
      error: { code: 'transport' }
    })
    const foreign = { url: 'https://evil.example/' }
    expect(await call({ sender: { id: 1, mainFrame: foreign }, senderFrame: foreign })).toMatchObject({
      ok: false
    })
    const other = { url: APP_URL }
    expect(await call({ sender: { id: 2, mainFrame: other }, senderFrame: other })).toMatchObject({
      ok: false
    })
    expect(await call({ sender: { id: 1, mainFrame: win.mainFrame }, senderFrame: null })).toMatchObject({
      ok: false
    })
    detach()
  })

  it('sends events to windows and stops after detach', () => {
    const { win, events, detach } = setup()
    const changed = { name: 'test.thing.changed', payload: z.object({ n: z.number() }) }
    events.emit(changed, { n: 1 })
    expect(win.sent).toEqual([
      { channel: EVENT_CHANNEL, message: { name: 'test.thing.changed', payload: { n: 1 } } }
    ])
    detach()
    events.emit(changed, { n: 2 })
    expect(win.sent).toHaveLength(1)
    expect(handlers.has(ROUTE_CHANNEL)).toBe(false)
  })
})
