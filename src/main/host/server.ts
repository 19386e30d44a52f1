import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, resolve, sep } from 'node:path'
import type { AddressInfo } from 'node:net'
import { WebSocketServer, type WebSocket } from 'ws'
import { ClientMessage, type ServerMessage } from '@shared/contracts/envelope'
import type { Router } from '../bridge/router'
import type { EventHub } from '../bridge/events'
import { CONTENT_SECURITY_POLICY } from '../security'

export const BRIDGE_PATH = '/bridge'
/** Large enough for a pasted image, small enough that one frame cannot exhaust memory. */
export const MAX_MESSAGE_BYTES = 8 * 1024 * 1024

export interface HostOptions {
  router: Router
  events: EventHub
  /** Folder with the built renderer (index.html + assets). */
  rendererDir: string
  port?: number
  token?: string
  log?: (message: string) => void
}

export interface RunningHost {
  url: string
  origin: string
  port: number
  token: string
  close(): Promise<void>
}

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2'
}

/** The bridge a listening host serves once the back end exists. */
export interface HostBridge {
  router: Router
  events: EventHub
  token: string
}

export interface ListeningHost {
  origin: string
  port: number
  /** Starts answering bridge connections (refused with 503 until then). */
  attach(bridge: HostBridge): RunningHost
  /**
   * Stops serving the current back end: open pages are told the service restarts (after what was
   * already sent to them) and new connections get 503 until the next `attach`.
   */
  detach(): void
  close(): Promise<void>
}

/** The port is taken: the one line to print, and nothing else done. */
export class PortInUseError extends Error {
  constructor(readonly port: number) {
    super(`Port ${port} on 127.0.0.1 is already in use: stop the program using it or pass another --port.`)
    this.name = 'PortInUseError'
  }
}

/**
 * Binds the headless host's port on 127.0.0.1 and serves the built UI, before the back end
 * exists: a busy port fails here, before the data folder is touched. Bridge connections wait
 * for `attach`; the WebSocket refuses a missing or wrong token and any Origin other than this
 * host's own, so another site open in the same browser cannot drive the agent.
 */
export async function listenHost(options: {
  rendererDir: string
  port?: number
  log?: (message: string) => void
}): Promise<ListeningHost> {
  const log = options.log ?? (() => {})
  const rendererRoot = resolve(options.rendererDir)
  let origin = ''
  let bridge: HostBridge | undefined

  const http = createServer((req, res) => {
    void serveStatic(rendererRoot, req, res).catch((error) => {
      log(`static file error: ${String(error)}`)
      if (!res.headersSent) res.writeHead(500).end()
    })
  })
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES })

  http.on('upgrade', (req, socket, head) => {
    const refusal = bridge ? checkUpgrade(req, bridge.token, origin) : { status: 503, reason: 'Starting' }
    if (refusal) {
      log(`bridge connection refused: ${refusal.reason}`)
      socket.end(
        `HTTP/1.1 ${refusal.status} ${refusal.reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`
      )
      return
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req))
  })

  let clientSeq = 0
  wss.on('connection', (ws: WebSocket) => {
    const { router, events } = bridge!
    const clientId = `ws-${++clientSeq}`
    const send = (message: ServerMessage) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message))
    }
    const unsubscribe = events.subscribe((name, payload) => send({ type: 'event', name, payload }))
    ws.on('close', unsubscribe)
    ws.on('error', (error) => log(`bridge socket error: ${error.message}`))
    ws.on('message', (data, isBinary) => {
      if (isBinary) return ws.close(1003, 'binary frames are not accepted')
      let parsed: ClientMessage
      try {
        const result = ClientMessage.safeParse(JSON.parse(data.toString()))
        if (!result.success) return ws.close(1008, 'malformed message')
        parsed = result.data
      } catch {
        return ws.close(1007, 'message is not JSON')
      }
      void router
        .invoke(parsed.route, parsed.input, { transport: 'websocket', clientId })
        .then((result) => send({ type: 'result', id: parsed.id, result }))
    })
  })

  const requested = options.port ?? 0
  await new Promise<void>((resolveListen, reject) => {
    http.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(requested) : error)
    )
    http.listen(requested, '127.0.0.1', () => resolveListen())
  })
  const port = (http.address() as AddressInfo).port
  origin = `http://127.0.0.1:${port}`

  const close = async () => {
    for (const client of wss.clients) client.terminate()
    await new Promise<void>((r) => wss.close(() => r()))
    await new Promise<void>((r) => http.close(() => r()))
  }
  return {
    origin,
    port,
    attach(next) {
      bridge = next
      return { url: `${origin}/#token=${next.token}`, origin, port, token: next.token, close }
    },
    detach() {
      bridge = undefined
      for (const client of wss.clients) client.close(1012, 'Service Restart')
    },
    close
  }
}

/** Listens and serves the bridge at once (tests, and callers that have the back end already). */
export async function startHost(options: HostOptions): Promise<RunningHost> {
  const listening = await listenHost(options)
  return listening.attach({
    router: options.router,
    events: options.events,
    token: options.token ?? newHostToken()
  })
}

export function newHostToken(): string {
  return randomBytes(24).toString('base64url')
}

function checkUpgrade(
  req: IncomingMessage,
  token: string,
  origin: string
): { status: number; reason: string } | null {
  const url = new URL(req.url ?? '/', origin)
  if (url.pathname !== BRIDGE_PATH) return { status: 404, reason: 'Not Found' }
  const requestOrigin = req.headers.origin
  // Browsers always send Origin on a WebSocket; non-browser clients (tests, scripts) may not,
  // and they still need the token.
  if (requestOrigin !== undefined && !isOwnOrigin(requestOrigin, origin)) {
    return { status: 403, reason: 'Forbidden Origin' }
  }
  const given = url.searchParams.get('token')
  if (!given) return { status: 401, reason: 'Token Required' }
  if (!sameSecret(given, token)) return { status: 401, reason: 'Bad Token' }
  return null
}

function isOwnOrigin(requestOrigin: string, origin: string): boolean {
  const port = new URL(origin).port
  return requestOrigin === origin || requestOrigin === `http://localhost:${port}`
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405).end()
    return
  }
  let pathname: string
  try {
    pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)
  } catch {
    pathname = '\0'
  }
  if (pathname.includes('\0')) {
    res.writeHead(400, { 'Content-Type': 'text/plain' }).end('Bad request: malformed URL')
    return
  }
  let file = normalize(join(root, pathname))
  if (file !== root && !file.startsWith(root + sep)) {
    res.writeHead(403).end()
    return
  }
  const info = await stat(file).catch(() => null)
  // Unknown paths fall back to index.html so client-side routes survive a reload.
  if (!info || info.isDirectory()) file = join(root, 'index.html')
  const body = await readFile(file).catch(() => null)
  if (!body) {
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('UI not built: run npm run build')
    return
  }
  res.writeHead(200, {
    'Content-Type': MIME[extname(file)] ?? 'application/octet-stream',
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': extname(file) === '.html' ? 'no-store' : 'public, max-age=3600'
  })
  res.end(req.method === 'HEAD' ? undefined : body)
}
