import { afterEach, describe, expect, it } from 'vitest'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import WebSocket from 'ws'
import { appGetInfo } from '@shared/contracts/routes/app.routes'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { configSettingsChanged } from '@shared/contracts/events/config.events'
import { BridgeClient, BridgeError } from '../../../src/renderer/src/api/bridge'
import { websocketTransport } from '../../../src/renderer/src/api/transports'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import { startHost, type RunningHost } from '../../../src/main/host/server'
import { useTempDirs } from '../helpers/tempDir'

// The renderer's bridge client, driven against the real host (ws stands in for the browser's
// WebSocket class, which Node 20 lacks).
const tempDir = useTempDirs()
let host: RunningHost | undefined
let presenters: Presenters | undefined

afterEach(async () => {
  await host?.close()
  await presenters?.dispose()
})

async function client(): Promise<{ bridge: BridgeClient; connection: boolean[] }> {
  const dataDir = tempDir()
  mkdirSync(join(dataDir, 'ui'))
  presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
  host = await startHost({
    router: createRouter(presenters),
    events: presenters.events,
    rendererDir: join(dataDir, 'ui')
  })
  const connection: boolean[] = []
  const transport = websocketTransport({
    url: `ws://127.0.0.1:${host.port}/bridge?token=${host.token}`,
    WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket,
    onConnectionChange: (connected) => connection.push(connected)
  })
  return { bridge: new BridgeClient(transport), connection }
}

describe('renderer bridge client over the host WebSocket', () => {
  it('returns typed outputs', async () => {
    const { bridge } = await client()
    const info = await bridge.call(appGetInfo, {})
    expect(info.platform).toBe('node')
    expect(info.dataDir).toBe(presenters!.platform.userDataDir)
  })

  it('rethrows a failed call as a BridgeError carrying the code from main', async () => {
    const { bridge } = await client()
    const failure = bridge.call(configUpdateSettings, { patch: { theme: 'sepia' as never } })
    await expect(failure).rejects.toBeInstanceOf(BridgeError)
    await expect(failure).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('patch.theme')
    })
  })

  it('delivers events to handlers of that event only', async () => {
    const { bridge } = await client()
    const received: string[][] = []
    bridge.on(configSettingsChanged, (payload) => received.push(payload.changedKeys))
    await bridge.call(configUpdateSettings, { patch: { theme: 'dark' } })
    await expect.poll(() => received).toEqual([['theme']])
  })

  it('fails calls in flight when the connection drops and reports it', async () => {
    const { bridge, connection } = await client()
    await bridge.call(appGetInfo, {})
    await host!.close()
    host = undefined
    await expect(bridge.call(appGetInfo, {})).rejects.toMatchObject({ code: 'transport' })
    expect(connection[0]).toBe(true)
    expect(connection.slice(1).every((connected) => !connected)).toBe(true)
    expect(connection.length).toBeGreaterThan(1)
  })
})
