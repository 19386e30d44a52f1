import { TOOL } from '@shared/builtinTools'
import type { ChatMessageView } from '@shared/types/chat'
import type { PendingInteraction } from '@shared/types/session'

/** Where each open request of a chat shows its card. */
export interface InteractionPlacement {
  /** Tool call id -> the requests shown on that call's block (in the open chat's messages). */
  onCall: Map<string, PendingInteraction[]>
  /** Requests with no block on screen to sit on: shown above the input instead. */
  docked: PendingInteraction[]
}

/**
 * A request sits on the tool call that waits for it. A subagent's request sits on the parent's
 * running `subagent_orchestrator` call (the child's own call is in a chat that is not open). A
 * request whose call is not loaded (an older page, a background run that already returned) is
 * docked, so no request is ever invisible.
 */
export function placeInteractions(
  interactions: readonly PendingInteraction[],
  messages: readonly Pick<ChatMessageView, 'id' | 'blocks'>[],
  openSessionId: string | null
): InteractionPlacement {
  const calls = new Set<string>()
  let runningOrchestrator: string | null = null
  for (const message of messages)
    for (const block of message.blocks) {
      if (block.kind !== 'tool_call') continue
      calls.add(block.toolCall.id)
      const live = block.status === 'pending' || block.status === 'loading'
      if (live && block.toolCall.name === TOOL.subagentOrchestrator) runningOrchestrator = block.toolCall.id
    }
  const onCall = new Map<string, PendingInteraction[]>()
  const docked: PendingInteraction[] = []
  const put = (callId: string, interaction: PendingInteraction) =>
    onCall.set(callId, [...(onCall.get(callId) ?? []), interaction])
  for (const interaction of interactions) {
    if (interaction.status !== 'pending') continue
    const own = interaction.sessionId === openSessionId
    if (own && interaction.toolCallId && calls.has(interaction.toolCallId))
      put(interaction.toolCallId, interaction)
    else if (!own && runningOrchestrator) put(runningOrchestrator, interaction)
    else docked.push(interaction)
  }
  return { onCall, docked }
}
