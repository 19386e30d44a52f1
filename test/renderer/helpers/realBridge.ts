import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RouteResult } from '@shared/contracts/envelope'
import { BridgeClient, setBridgeForTesting } from '@renderer/api/bridge'
import type { BridgeTransport } from '@renderer/api/transports'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import type { DesktopPort } from '../../../src/main/platform/types'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'

const disposedTransport: BridgeTransport = {
  kind: 'electron',
  // Never answers, as a connection that is gone for good: nothing waits on it after the test.
  invoke: () => new Promise<RouteResult>(() => {}),
  on: () => () => {}
}

/**
 * Components under test talk to the real back end (presenters on a temp dir, the real router)
 * through an in-process transport that behaves like IPC.
 */
export function useRealBridge(options: { desktop?: DesktopPort } = {}): {
  presenters: Presenters
  calls: string[]
  dispose(): Promise<void>
} {
  const dataDir = mkdtempSync(join(tmpdir(), 'deepchat-renderer-'))
  // `desktop`: the desktop shell's services, as the Electron app provides them.
  const platform = { ...createNodePlatform({ dataDir, log: () => {} }), desktop: options.desktop }
  const presenters = createPresenters(platform, { log: () => {} })
  const router = createRouter(presenters)
  const calls: string[] = []
  const transport: BridgeTransport = {
    kind: 'electron',
    invoke: async (route, input) => {
      calls.push(route)
      // Structured clone, like IPC: the renderer never shares objects with main.
      return structuredClone(
        await router.invoke(route, structuredClone(input), { transport: 'test', clientId: 'r' })
      ) as RouteResult
    },
    on: (listener) => presenters.events.subscribe((name, payload) => listener(name, structuredClone(payload)))
  }
  setBridgeForTesting(new BridgeClient(transport))
  return {
    presenters,
    calls,
    async dispose() {
      // A late call from this test's stores (a draft's save timer, an unmount's flush) goes here
      // instead of opening a real WebSocket whose failure would mark the next test's app offline.
      setBridgeForTesting(new BridgeClient(disposedTransport))
      await presenters.dispose()
      rmSync(dataDir, { recursive: true, force: true })
    }
  }
}
