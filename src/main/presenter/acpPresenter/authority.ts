import {
  RequestError,
  type RequestPermissionRequest,
  type RequestPermissionResponse
} from '@agentclientprotocol/sdk'
import type { AcpPermissionAnswer, AcpPermissionAsk, AcpToolCall } from '@shared/types/acp'
import type { PermissionMode, PermissionRequest } from '@shared/types/permission'
import type { GateResult, PermissionGate } from '../permission'
import { agentToolRequest } from '../permission/agentToolRequest'
import type { AcpTurn } from './turn'

/** JSON-RPC error code we answer a refused file or terminal request with (implementation-defined range). */
export const PERMISSION_DENIED_CODE = -32003

export type BoundaryMethod = 'fs/read_text_file' | 'fs/write_text_file' | 'terminal/create'

/** Who is asking, as the boundary sees an agent request: the chat, its folder and its running turn. */
export interface AgentRequestContext {
  chatSessionId: string
  agentId: string
  workspaceDir: string
  /** The chat's own data folder (terminal logs; readable). */
  sessionDataDir: string
  permissionMode: PermissionMode
  /** The turn in flight, whose hooks ask the user; null between turns (nothing can be asked then). */
  turn: AcpTurn | null
}

export function deniedError(message: string): RequestError {
  return new RequestError(PERMISSION_DENIED_CODE, message)
}

/**
 * Turns a request our permission services raised into allow or refuse: the gate first (deny
 * rules, full access, this chat's grants, remembered rules), then the chat loop's ask. Resolves
 * with the request as approved (the run re-checks its paths against it), or throws a
 * permission-denied error the agent sees.
 */
export class AcpAuthority {
  constructor(private readonly deps: { gate?: PermissionGate; log: (message: string) => void }) {}

  async authorize(
    ctx: AgentRequestContext,
    request: PermissionRequest,
    method: BoundaryMethod,
    toolCallId: string | null
  ): Promise<PermissionRequest> {
    const verdict = this.verdict(request, ctx.permissionMode)
    if (verdict.status === 'deny') throw deniedError(`${verdict.reason}: ${request.reason}`)
    if (verdict.status === 'allow') {
      if (verdict.onceGrant) this.deps.gate?.consume(request.sessionId, verdict.onceGrant)
      return request
    }
    const answer = await this.ask(ctx, {
      kind: 'boundary',
      chatSessionId: ctx.chatSessionId,
      agentId: ctx.agentId,
      method,
      request,
      toolCallId
    })
    if (answer === 'allow_once' || answer === 'allow_always') return request
    throw deniedError(`The user denied the request: ${request.reason}`)
  }

  /**
   * The agent's own `session/request_permission`, judged as our request for the agent's tool
   * (`agentToolRequest`): the gate first (deny rules, full access, grants, remembered rules), else
   * the user. Any allow becomes the agent's allow-*once* option: "always" is remembered as our
   * rule, so the agent keeps asking and revoking the rule in Settings takes effect.
   */
  async agentTool(
    ctx: AgentRequestContext,
    params: RequestPermissionRequest,
    toolCall: AcpToolCall
  ): Promise<RequestPermissionResponse> {
    const request = agentToolRequest({ ...ctx, toolCall })
    const verdict = this.verdict(request, ctx.permissionMode)
    let allowed: boolean | null
    if (verdict.status === 'deny') {
      this.deps.log(`${ctx.agentId}'s ${toolCall.title} refused: ${verdict.reason}`)
      allowed = false
    } else if (verdict.status === 'allow') {
      if (verdict.onceGrant) this.deps.gate?.consume(request.sessionId, verdict.onceGrant)
      allowed = true
    } else {
      const answer = await this.ask(ctx, {
        kind: 'agent_tool',
        chatSessionId: ctx.chatSessionId,
        agentId: ctx.agentId,
        toolCall,
        options: params.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
        request
      })
      allowed = answer === null ? null : answer !== 'reject'
    }
    const option = allowed === null ? undefined : optionFor(params.options, allowed ? 'allow_once' : 'reject')
    return option
      ? { outcome: { outcome: 'selected', optionId: option.optionId } }
      : { outcome: { outcome: 'cancelled' } }
  }

  /** The gate's verdict; without a gate only full access lets anything through unasked. */
  private verdict(request: PermissionRequest, mode: PermissionMode): GateResult {
    if (this.deps.gate) return this.deps.gate.evaluate(request, mode)
    return mode === 'full_access' ? { status: 'allow', via: 'full_access' } : { status: 'ask' }
  }

  /** Asks through the turn's hook; no turn, a stopped turn or a failing hook is a refusal. */
  private async ask(ctx: AgentRequestContext, ask: AcpPermissionAsk): Promise<AcpPermissionAnswer | null> {
    const turn = ctx.turn
    if (!turn || turn.signal.aborted) return null
    try {
      // A stop withdraws the ask even if the hook does not listen to the signal.
      const answer = await Promise.race([
        turn.hooks.requestPermission(ask, turn.signal),
        aborted(turn.signal)
      ])
      return turn.signal.aborted ? null : answer
    } catch (error) {
      if (!turn.signal.aborted) this.deps.log(`ACP permission ask failed: ${String(error)}`)
      return null
    }
  }
}

function aborted(signal: AbortSignal): Promise<null> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve(null)
    else signal.addEventListener('abort', () => resolve(null), { once: true })
  })
}

type Option = RequestPermissionRequest['options'][number]

/** The agent's option for the user's answer: the same kind if offered, else the nearest one. */
function optionFor(options: Option[], answer: AcpPermissionAnswer): Option | undefined {
  const preference: Option['kind'][] =
    answer === 'allow_once'
      ? ['allow_once', 'allow_always']
      : answer === 'allow_always'
        ? ['allow_always', 'allow_once']
        : ['reject_once', 'reject_always']
  for (const kind of preference) {
    const found = options.find((o) => o.kind === kind)
    if (found) return found
  }
  return undefined
}
