import type { AcpLogEntry } from '@shared/types/acp'
import { isSecretName } from '../mcpPresenter/configStore'

export const LOG_CAPACITY = 500
export const SUMMARY_CHARS = 600
const REDACTED = '[redacted]'
/**
 * Object keys whose string values are credentials. Narrower than the env-name rule (which also
 * matches `session`), so ids such as `sessionId` stay readable.
 */
const SECRET_KEY = /api[-_]?key|token|secret|passw|credential|cookie|bearer|private[-_]?key|^authorization$/i

/** One JSON-RPC message as it crossed the wire. */
export interface WireMessage {
  id?: string | number | null
  method?: string
  params?: unknown
  result?: unknown
  error?: unknown
}

/**
 * The last protocol messages of each agent, for Settings' troubleshooting view: a bounded ring
 * per agent, each entry with method, direction, time and size, its payload cut short and any
 * credential-looking value (env entries, headers, `apiKey`, `token`, …) redacted.
 */
export class ProtocolLog {
  private readonly rings = new Map<string, AcpLogEntry[]>()
  private readonly seqs = new Map<string, number>()

  constructor(
    private readonly onAppend: (agentId: string, entry: AcpLogEntry) => void = () => {},
    private readonly capacity = LOG_CAPACITY
  ) {}

  /** Records a message; `method` is given for responses, whose own message does not carry it. */
  record(
    agentId: string,
    workspaceDir: string,
    direction: 'out' | 'in',
    message: WireMessage,
    method?: string
  ): void {
    const text = safeStringify(message)
    this.push(agentId, {
      workspaceDir,
      direction,
      kind: kindOf(message),
      method: message.method ?? method,
      id: message.id,
      bytes: Buffer.byteLength(text),
      summary: summarize(message)
    })
  }

  recordStderr(agentId: string, workspaceDir: string, line: string): void {
    this.push(agentId, {
      workspaceDir,
      direction: 'in',
      kind: 'stderr',
      bytes: Buffer.byteLength(line),
      summary: line.slice(0, SUMMARY_CHARS)
    })
  }

  list(agentId: string, options: { afterSeq?: number; limit?: number } = {}): AcpLogEntry[] {
    const ring = this.rings.get(agentId) ?? []
    const after = ring.filter((e) => e.seq > (options.afterSeq ?? 0))
    return options.limit ? after.slice(-options.limit) : after
  }

  clear(agentId: string): void {
    this.rings.delete(agentId)
  }

  private push(agentId: string, entry: Omit<AcpLogEntry, 'seq' | 'at'>): void {
    const seq = (this.seqs.get(agentId) ?? 0) + 1
    this.seqs.set(agentId, seq)
    const full: AcpLogEntry = { seq, at: Date.now(), ...entry }
    const ring = this.rings.get(agentId) ?? []
    ring.push(full)
    if (ring.length > this.capacity) ring.splice(0, ring.length - this.capacity)
    this.rings.set(agentId, ring)
    this.onAppend(agentId, full)
  }
}

function kindOf(message: WireMessage): AcpLogEntry['kind'] {
  if (message.method !== undefined) return message.id === undefined ? 'notification' : 'request'
  return message.error !== undefined ? 'error' : 'response'
}

/** The interesting part of a message as short JSON, secrets redacted. */
export function summarize(message: WireMessage): string {
  const payload =
    message.method !== undefined
      ? message.params
      : message.error !== undefined
        ? message.error
        : message.result
  const text = safeStringify(redact(payload)) ?? ''
  return text.length > SUMMARY_CHARS ? `${text.slice(0, SUMMARY_CHARS)}… (${text.length} chars)` : text
}

/**
 * A copy of `value` with credentials replaced: object keys that look like secrets, and
 * `{name, value}` pairs (ACP's env variables and HTTP headers) whose name does.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((item) => redact(item, depth + 1))
  const record = value as Record<string, unknown>
  const pairName = typeof record.name === 'string' && 'value' in record ? record.name : null
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(record)) {
    if (key === 'value' && pairName !== null && isSecretName(pairName)) out[key] = REDACTED
    else if (typeof inner === 'string' && SECRET_KEY.test(key)) out[key] = REDACTED
    else out[key] = redact(inner, depth + 1)
  }
  return out
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? ''
  } catch {
    return '[unserializable]'
  }
}
