import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js'
import { ErrorCode, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'

export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024
const KEEP_BYTES = 512

/** What the user and the waiting call are told; the size is in whole MB. */
export function oversizedText(bytes: number, limit = MAX_MESSAGE_BYTES): string {
  const mb = (n: number) => `${Math.max(1, Math.round(n / (1024 * 1024)))} MB`
  return `The server sent a message larger than ${mb(limit)} (${mb(bytes)}); it was dropped`
}

/** A response (`result`/`error` before any `method`) and its id, read from the kept ends of a dropped line. */
function responseIdOf(head: string, tail: string): string | number | undefined {
  const value = String.raw`(-?\d+|"(?:[^"\\]|\\.)*")`
  const isResponse = new RegExp(
    String.raw`^\s*\{\s*(?:"(?:jsonrpc|id)"\s*:\s*${value}\s*,\s*)*"(?:result|error)"\s*:`
  ).test(head)
  if (!isResponse) return undefined
  const found =
    new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}`).exec(head) ??
    new RegExp(String.raw`"id"\s*:\s*${value}\s*\}\s*$`).exec(tail)
  if (!found) return undefined
  try {
    const id: unknown = JSON.parse(found[1])
    return typeof id === 'string' || typeof id === 'number' ? id : undefined
  } catch {
    return undefined
  }
}

type Line = string | { oversized: number; id?: string | number }

/**
 * A drop-in for the SDK's stdio ReadBuffer. The SDK's throws when a line passes 10 MB, and the
 * transport then closes: every call on the server dies and the reason reads "exited with code
 * 0". This one skips just that line (keeping a few hundred bytes of each end to find its id),
 * answers the request it was meant for with an error that says what happened, and reads on.
 */
export class GuardedReadBuffer {
  private chunks: Buffer[] = []
  private size = 0
  private skipping?: { bytes: number; head: Buffer; tail: Buffer }
  private readonly lines: Line[] = []

  constructor(
    private readonly onOversized: (bytes: number) => void,
    private readonly maxBytes = MAX_MESSAGE_BYTES
  ) {}

  append(chunk: Buffer): void {
    let start = 0
    for (;;) {
      const newline = chunk.indexOf(10, start)
      this.take(chunk.subarray(start, newline === -1 ? chunk.length : newline))
      if (newline === -1) return
      this.endLine()
      start = newline + 1
    }
  }

  readMessage(): JSONRPCMessage | null {
    const line = this.lines.shift()
    if (line === undefined) return null
    if (typeof line === 'string') return deserializeMessage(line)
    const message = oversizedText(line.oversized, this.maxBytes)
    // Without an id nobody can be answered: the transport reports the error and reads on.
    if (line.id === undefined) throw new Error(message)
    return { jsonrpc: '2.0', id: line.id, error: { code: ErrorCode.InternalError, message } }
  }

  clear(): void {
    this.chunks = []
    this.size = 0
    this.skipping = undefined
    this.lines.length = 0
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return
    if (this.skipping) {
      this.skipping.bytes += piece.length
      this.skipping.tail = lastBytes(Buffer.concat([this.skipping.tail, piece]))
      return
    }
    if (this.size + piece.length <= this.maxBytes) {
      this.chunks.push(piece)
      this.size += piece.length
      return
    }
    const sofar = Buffer.concat([...this.chunks, piece])
    this.skipping = {
      bytes: sofar.length,
      head: Buffer.from(sofar.subarray(0, KEEP_BYTES)),
      tail: lastBytes(sofar)
    }
    this.chunks = []
    this.size = 0
  }

  private endLine(): void {
    if (this.skipping) {
      const { bytes, head, tail } = this.skipping
      this.skipping = undefined
      this.onOversized(bytes)
      this.lines.push({ oversized: bytes, id: responseIdOf(head.toString('utf8'), tail.toString('utf8')) })
      return
    }
    const text = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '')
    this.chunks = []
    this.size = 0
    if (text.trim()) this.lines.push(text)
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= KEEP_BYTES ? buffer : Buffer.from(buffer.subarray(buffer.length - KEEP_BYTES))
}

/**
 * Puts the guard in place of the transport's read buffer. Checked at run time: if a new SDK
 * renames the field, the SDK's own limit applies again (a dropped connection, not a crash).
 */
export function guardStdioLines(
  transport: StdioClientTransport,
  onOversized: (bytes: number) => void
): boolean {
  const current: unknown = Reflect.get(transport, '_readBuffer')
  if (
    typeof current !== 'object' ||
    current === null ||
    !('append' in current) ||
    !('readMessage' in current)
  )
    return false
  Reflect.set(transport, '_readBuffer', new GuardedReadBuffer(onOversized))
  return true
}
