import { methods, type ContentBlock, type PromptCapabilities } from '@agentclientprotocol/sdk'
import { AppError } from '@shared/errors'
import type { AcpPromptContent, AcpTurnEvent } from '@shared/types/acp'
import type { PermissionMode } from '@shared/types/permission'
import type { AgentProcess } from './agentProcess'
import type { AcpSession } from './session'
import { AcpTurn, type AcpTurnHooks } from './turn'
import type { TerminalLookup } from './updateMapper'

export interface TurnRun {
  session: AcpSession
  process: AgentProcess
  content: AcpPromptContent[]
  signal?: AbortSignal
  permissionMode: PermissionMode
  hooks: AcpTurnHooks
  terminals: TerminalLookup
  /** After `session/cancel`, how long the agent gets to answer the prompt before we end the turn. */
  cancelGraceMs: number
  log: (message: string) => void
}

/**
 * One `session/prompt`, streamed as our turn events and ended by a `stop` event. Only the
 * caller's abort (the user's Stop) sends `session/cancel`; a turn that ends by itself never
 * does. A consumer that leaves early counts as a stop.
 */
export async function* runTurn(run: TurnRun): AsyncGenerator<AcpTurnEvent> {
  const { session, process } = run
  if (session.turn)
    throw new AppError('acp_turn_busy', `${session.agentId} is still answering this chat's previous message`)
  const turn = new AcpTurn(run.permissionMode, run.hooks, run.terminals)
  session.turn = turn
  session.permissionMode = run.permissionMode
  let cancelSent = false
  let grace: NodeJS.Timeout | undefined
  const cancel = (): void => {
    if (cancelSent || turn.isSettled) return
    cancelSent = true
    turn.withdrawAsks()
    process.rpc
      .notify(methods.agent.session.cancel, { sessionId: session.sessionId })
      .catch((error: unknown) => run.log(`session/cancel failed: ${String(error)}`))
    // An agent that never answers a cancelled prompt must not hold the chat forever.
    grace = setTimeout(() => turn.finish('cancelled'), run.cancelGraceMs)
  }
  try {
    if (run.signal?.aborted) {
      turn.finish('cancelled')
    } else {
      run.signal?.addEventListener('abort', cancel, { once: true })
      const prompt = promptBlocks(run.content, process.initialize.agentCapabilities?.promptCapabilities)
      process
        .untilExit(
          process.rpc.request(methods.agent.session.prompt, { sessionId: session.sessionId, prompt }),
          'session/prompt'
        )
        .then(
          (response) => turn.finish(response.stopReason),
          (error: unknown) => turn.fail(error)
        )
    }
    for await (const event of turn.events) yield event
  } finally {
    run.signal?.removeEventListener('abort', cancel)
    if (!turn.isSettled) cancel()
    if (grace) clearTimeout(grace)
    if (session.turn === turn) session.turn = null
  }
}

/** Our prompt content in ACP blocks; images only to agents that take them. */
export function promptBlocks(
  content: AcpPromptContent[],
  capabilities: PromptCapabilities | undefined
): ContentBlock[] {
  return content.map((item): ContentBlock => {
    if (item.type === 'text') return { type: 'text', text: item.text }
    if (item.type === 'resource_link') return { type: 'resource_link', uri: item.uri, name: item.name }
    return capabilities?.image
      ? { type: 'image', mimeType: item.mimeType, data: item.data }
      : {
          type: 'text',
          text: `[An image (${item.mimeType}) was left out: this agent does not accept images.]`
        }
  })
}
