import { Readable, Writable } from 'node:stream'
import {
  client,
  methods,
  ndJsonStream,
  type AnyMessage,
  type ClientConnection,
  type CreateTerminalRequest,
  type CreateTerminalResponse,
  type KillTerminalRequest,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type ReleaseTerminalRequest,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
  type Stream,
  type TerminalOutputRequest,
  type TerminalOutputResponse,
  type WaitForTerminalExitRequest,
  type WaitForTerminalExitResponse,
  type WriteTextFileRequest
} from '@agentclientprotocol/sdk'
import type { WireMessage } from './protocolLog'

/** What the agent may ask of us. Every call names its session; the pool routes it to that chat. */
export interface ClientHandlers {
  sessionUpdate(params: SessionNotification): void
  requestPermission(params: RequestPermissionRequest, signal: AbortSignal): Promise<RequestPermissionResponse>
  readTextFile(params: ReadTextFileRequest, signal: AbortSignal): Promise<ReadTextFileResponse>
  writeTextFile(params: WriteTextFileRequest, signal: AbortSignal): Promise<Record<string, never>>
  createTerminal(params: CreateTerminalRequest, signal: AbortSignal): Promise<CreateTerminalResponse>
  terminalOutput(params: TerminalOutputRequest): Promise<TerminalOutputResponse>
  waitForTerminalExit(
    params: WaitForTerminalExitRequest,
    signal: AbortSignal
  ): Promise<WaitForTerminalExitResponse>
  killTerminal(params: KillTerminalRequest): Promise<Record<string, never>>
  releaseTerminal(params: ReleaseTerminalRequest): Promise<Record<string, never>>
}

/** Sees every message on the wire (the protocol log); `method` is filled in for responses. */
export type WireTap = (direction: 'out' | 'in', message: WireMessage, method?: string) => void

export type AgentRpc = ClientConnection['agent']

/**
 * The client side of one agent connection over the agent's stdio, built with the SDK's
 * `client()` app. Handlers are registered once; the returned connection stays open until the
 * agent's stdout ends or `close()` is called.
 */
export function connectAgent(
  stdio: { stdin: Writable; stdout: Readable },
  handlers: ClientHandlers,
  tap: WireTap
): ClientConnection {
  const wire = ndJsonStream(
    Writable.toWeb(stdio.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(stdio.stdout) as ReadableStream<Uint8Array>
  )
  const app = client({ name: 'deepchat-desk' })
    .onNotification(methods.client.session.update, ({ params }) => handlers.sessionUpdate(params))
    .onRequest(methods.client.session.requestPermission, ({ params, signal }) =>
      handlers.requestPermission(params, signal)
    )
    .onRequest(methods.client.fs.readTextFile, ({ params, signal }) => handlers.readTextFile(params, signal))
    .onRequest(methods.client.fs.writeTextFile, ({ params, signal }) =>
      handlers.writeTextFile(params, signal)
    )
    .onRequest(methods.client.terminal.create, ({ params, signal }) =>
      handlers.createTerminal(params, signal)
    )
    .onRequest(methods.client.terminal.output, ({ params }) => handlers.terminalOutput(params))
    .onRequest(methods.client.terminal.waitForExit, ({ params, signal }) =>
      handlers.waitForTerminalExit(params, signal)
    )
    .onRequest(methods.client.terminal.kill, ({ params }) => handlers.killTerminal(params))
    .onRequest(methods.client.terminal.release, ({ params }) => handlers.releaseTerminal(params))
  return app.connect(tapped(wire, tap))
}

/** The stream with every message shown to `tap`, responses labelled with their request's method. */
function tapped(wire: Stream, tap: WireTap): Stream {
  const sentRequests = new Map<string | number, string>()
  const receivedRequests = new Map<string | number, string>()
  const observe = (direction: 'out' | 'in', message: AnyMessage): void => {
    const record = message as WireMessage
    const mine = direction === 'out' ? sentRequests : receivedRequests
    const theirs = direction === 'out' ? receivedRequests : sentRequests
    let method: string | undefined
    if (record.method !== undefined && record.id !== undefined && record.id !== null)
      mine.set(record.id, record.method)
    else if (record.method === undefined && record.id !== undefined && record.id !== null) {
      method = theirs.get(record.id)
      theirs.delete(record.id)
    }
    try {
      tap(direction, record, method)
    } catch {
      // The log must never break the connection.
    }
  }
  const writer = wire.writable.getWriter()
  return {
    readable: wire.readable.pipeThrough(
      new TransformStream<AnyMessage, AnyMessage>({
        transform(message, controller) {
          observe('in', message)
          controller.enqueue(message)
        }
      })
    ),
    writable: new WritableStream<AnyMessage>({
      write(message) {
        observe('out', message)
        return writer.write(message)
      },
      close: () => writer.close(),
      abort: (reason) => writer.abort(reason)
    })
  }
}
