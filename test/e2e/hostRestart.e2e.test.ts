import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { appGetInfo } from '@shared/contracts/routes/app.routes'
import { configSettingsChanged } from '@shared/contracts/events/config.events'
import { BridgeClient } from '@renderer/api/bridge'
import { websocketTransport } from '@renderer/api/transports'
import { HOST_ENTRY, serve, type ServedHost } from './helpers/host'

const dirs: string[] = []
const hosts: ServedHost[] = []
let blocker: Server | undefined
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.stop()
  blocker?.close()
  blocker = undefined
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-restart-'))
  dirs.push(dir)
  return dir
}

/** Runs the built host with exactly these arguments and collects how it ends. */
function runHost(args: string[]): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [HOST_ENTRY, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stderr = ''
    let stdout = ''
    child.stderr.on('data', (chunk) => (stderr += String(chunk)))
    child.stdout.on('data', (chunk) => (stdout += String(chunk)))
    child.on('exit', (code) => resolve({ code, stderr, stdout }))
  })
}

describe('the headless host across restarts and a busy port', () => {
  it('exits 1 with one clear line on a busy port, before the data folder is created', async () => {
    blocker = createServer()
    await new Promise<void>((r) => blocker!.listen(0, '127.0.0.1', () => r()))
    const port = (blocker.address() as { port: number }).port
    const dataDir = join(tempDir(), 'never-created')
    const result = await runHost(['--port', String(port), '--data-dir', dataDir])
    expect(result.code).toBe(1)
    expect(result.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`Port ${port} on 127.0.0.1 is already in use`)
    ])
    expect(result.stderr).not.toMatch(/unhandled|at .*\(/)
    expect(existsSync(dataDir)).toBe(false)
  })

  it('comes back on the same port and token, so an open tab reconnects and its calls work', async () => {
    const dataDir = tempDir()
    const first = await serve(dataDir, {}, { omitPort: true })
    hosts.push(first)
    expect(statSync(join(dataDir, 'host.json')).mode & 0o777).toBe(0o600)
    const url = new URL(first.url)
    const token = new URLSearchParams(url.hash.slice(1)).get('token')!
    const connection: boolean[] = []
    const bridge = new BridgeClient(
      websocketTransport({
        url: `ws://${url.host}/bridge?token=${encodeURIComponent(token)}`,
        WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket,
        onConnectionChange: (connected) => connection.push(connected)
      })
    )
    const unsubscribe = bridge.on(configSettingsChanged, () => {})
    expect((await bridge.call(appGetInfo, {})).dataDir).toBe(dataDir)

    await first.stop()
    hosts.splice(hosts.indexOf(first), 1)
    await expect.poll(() => connection.at(-1)).toBe(false)
    const second = await serve(dataDir, {}, { omitPort: true })
    hosts.push(second)
    expect(second.url).toBe(first.url)
    await expect.poll(() => connection.at(-1), { timeout: 15_000 }).toBe(true)
    expect((await bridge.call(appGetInfo, {})).dataDir).toBe(dataDir)
    unsubscribe()
  }, 60_000)
})
