import { randomUUID } from 'node:crypto'
import {
  ErrorCode,
  McpError,
  type CreateMessageResult,
  type ElicitResult
} from '@modelcontextprotocol/sdk/types.js'
import { AppError } from '@shared/errors'
import {
  McpElicitationAnswer,
  McpSamplingDecision,
  type McpElicitationRequest,
  type McpSamplingRequest
} from '@shared/types/mcp'
import {
  mcpElicitationRequested,
  mcpInteractionCancelled,
  mcpSamplingRequested
} from '@shared/contracts/events/mcp.events'
import type { EventSink } from '../../bridge/events'
import type { McpClientHandlers, McpRequester, McpRoot } from './clientHandlers'
import { applySchemaDefaults, checkElicitationContent } from './elicitationSchema'
import { toSamplingMessages } from './samplingMessages'

/** Runs the model for a sampling request; llmProviderPresenter implements it when it exists. */
export interface SamplingModelRunner {
  createMessage(input: {
    providerId?: string
    modelId?: string
    systemPrompt?: string
    maxTokens: number
    messages: McpSamplingRequest['messages']
    signal: AbortSignal
  }): Promise<{ text: string; model: string; stopReason?: string }>
}

interface Pending<T> {
  kind: 'elicitation' | 'sampling'
  request: McpElicitationRequest | McpSamplingRequest
  resolve(answer: T): void
  reject(error: Error): void
}

const DEFAULT_ANSWER_TIMEOUT_MS = 10 * 60_000

/**
 * A server may ask the user one thing at a time per kind, and only so often: a flood of
 * requests would bury the user in dialogs (and wear down their attention until they click yes).
 */
export const INTERACTION_LIMITS = { perWindow: 10, windowMs: 60_000 }

/**
 * An error the SDK sends back as `{code: -32603, message}` as it is (McpError would put its own
 * "MCP error -32603:" in front, which the server's SDK then adds a second time).
 */
function refusal(message: string): Error {
  return Object.assign(new Error(message), { code: ErrorCode.InternalError })
}

/**
 * Answers server-initiated requests by asking the user: each request becomes an event for the
 * renderer and waits for the matching `mcp.answer*` route. A request the server cancels, or
 * nobody answers in time, is withdrawn with `mcp.interaction.cancelled`.
 */
export class InteractionBroker implements McpClientHandlers {
  private readonly pending = new Map<string, Pending<unknown>>()
  /** When each server's recent requests of each kind were shown, for the rate limit. */
  private readonly shownAt = new Map<string, number[]>()

  constructor(
    private readonly deps: {
      events: EventSink
      roots: (serverId: string) => McpRoot[]
      sampler?: () => SamplingModelRunner | undefined
      answerTimeoutMs?: number
    }
  ) {}

  pendingRequests(): {
    kind: 'elicitation' | 'sampling'
    request: McpElicitationRequest | McpSamplingRequest
  }[] {
    return [...this.pending.values()].map(({ kind, request }) => ({ kind, request }))
  }

  async elicit(
    request: McpRequester & { message: string; requestedSchema: Record<string, unknown> },
    signal: AbortSignal
  ): Promise<ElicitResult> {
    this.admit('elicitation', request)
    const full: McpElicitationRequest = { requestId: randomUUID(), ...request }
    this.deps.events.emit(mcpElicitationRequested, { request: full })
    const answer = await this.wait<McpElicitationAnswer>('elicitation', full, signal).catch(
      (): McpElicitationAnswer => ({ action: 'cancel' })
    )
    if (answer.action !== 'accept') return { action: answer.action }
    return { action: 'accept', content: applySchemaDefaults(request.requestedSchema, answer.content ?? {}) }
  }

  async sample(
    request: McpRequester & { params: Parameters<McpClientHandlers['sample']>[0]['params'] },
    signal: AbortSignal
  ): Promise<CreateMessageResult> {
    const messages = toSamplingMessages(request.params.messages)
    this.admit('sampling', request)
    const full: McpSamplingRequest = {
      requestId: randomUUID(),
      serverId: request.serverId,
      serverName: request.serverName,
      ...(request.params.systemPrompt ? { systemPrompt: request.params.systemPrompt } : {}),
      maxTokens: request.params.maxTokens,
      messages,
      modelHints: (request.params.modelPreferences?.hints ?? []).flatMap((h) => (h.name ? [h.name] : []))
    }
    this.deps.events.emit(mcpSamplingRequested, { request: full })
    let decision: McpSamplingDecision
    try {
      decision = await this.wait<McpSamplingDecision>('sampling', full, signal)
    } catch (error) {
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Sampling request was not answered: ${(error as Error).message}`
      )
    }
    if (!decision.approved)
      throw new McpError(
        ErrorCode.InvalidRequest,
        `User rejected the sampling request${decision.reason ? `: ${decision.reason}` : ''}`
      )
    const runner = this.deps.sampler?.()
    if (!runner)
      throw new McpError(ErrorCode.InternalError, 'No model is available to answer sampling requests')
    const result = await runner.createMessage({
      providerId: decision.providerId,
      modelId: decision.modelId,
      systemPrompt: full.systemPrompt,
      maxTokens: full.maxTokens,
      messages,
      signal
    })
    return {
      role: 'assistant',
      content: { type: 'text', text: result.text },
      model: result.model,
      stopReason: result.stopReason ?? 'endTurn'
    }
  }

  async listRoots(serverId: string): Promise<McpRoot[]> {
    return this.deps.roots(serverId)
  }

  answerElicitation(requestId: string, answer: McpElicitationAnswer): void {
    const entry = this.take(requestId, 'elicitation')
    const parsed = McpElicitationAnswer.safeParse(answer)
    if (!parsed.success)
      throw new AppError('mcp_invalid_answer', 'The answer is not a valid elicitation answer')
    if (parsed.data.action === 'accept') {
      const schema = (entry.request as McpElicitationRequest).requestedSchema
      const problem = checkElicitationContent(schema, applySchemaDefaults(schema, parsed.data.content ?? {}))
      // Keep the request pending so the user can correct the form instead of losing it.
      if (problem) throw new AppError('mcp_invalid_answer', problem)
    }
    this.pending.delete(requestId)
    entry.resolve(parsed.data)
  }

  answerSampling(requestId: string, decision: McpSamplingDecision): void {
    const entry = this.take(requestId, 'sampling')
    const parsed = McpSamplingDecision.safeParse(decision)
    if (!parsed.success)
      throw new AppError('mcp_invalid_answer', 'The answer is not a valid sampling decision')
    this.pending.delete(requestId)
    entry.resolve(parsed.data)
  }

  /** Withdraws everything a server asked for, e.g. when it stops. */
  cancelForServer(serverId: string, reason: string): void {
    for (const [requestId, entry] of this.pending) {
      if (entry.request.serverId !== serverId) continue
      this.pending.delete(requestId)
      this.deps.events.emit(mcpInteractionCancelled, { requestId, reason })
      entry.reject(new Error(reason))
    }
  }

  /**
   * Refuses a request while the same server has one of that kind waiting for the user, or has
   * sent too many lately. The server gets an MCP error it can read; the user sees nothing.
   */
  private admit(kind: Pending<unknown>['kind'], requester: McpRequester): void {
    const waiting = [...this.pending.values()].some(
      (entry) => entry.kind === kind && entry.request.serverId === requester.serverId
    )
    if (waiting)
      throw refusal(
        `Refused: another ${kind} request from this server is waiting for the user; send one at a time`
      )
    const key = `${requester.serverId}\0${kind}`
    const now = Date.now()
    const recent = (this.shownAt.get(key) ?? []).filter((t) => now - t < INTERACTION_LIMITS.windowMs)
    if (recent.length >= INTERACTION_LIMITS.perWindow)
      throw refusal(
        `Refused: too many ${kind} requests from this server (at most ${INTERACTION_LIMITS.perWindow} a minute)`
      )
    recent.push(now)
    this.shownAt.set(key, recent)
  }

  private take(requestId: string, kind: Pending<unknown>['kind']): Pending<unknown> {
    const entry = this.pending.get(requestId)
    if (!entry || entry.kind !== kind)
      throw new AppError('mcp_request_not_found', `No pending ${kind} request ${requestId}`)
    return entry
  }

  private wait<T>(
    kind: Pending<T>['kind'],
    request: McpElicitationRequest | McpSamplingRequest,
    signal: AbortSignal
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const requestId = request.requestId
      const withdraw = (reason: string) => {
        if (!this.pending.delete(requestId)) return
        cleanup()
        this.deps.events.emit(mcpInteractionCancelled, { requestId, reason })
        reject(new Error(reason))
      }
      const onAbort = () => withdraw('the server cancelled the request')
      const timer = setTimeout(
        () => withdraw('no answer in time'),
        this.deps.answerTimeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS
      )
      timer.unref?.()
      const cleanup = () => {
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.pending.set(requestId, {
        kind,
        request,
        resolve: (answer) => {
          cleanup()
          resolve(answer as T)
        },
        reject: (error) => {
          cleanup()
          reject(error)
        }
      })
    })
  }
}
