import { defineStore } from 'pinia'
import { ref } from 'vue'
import { chatGetMessage } from '@shared/contracts/routes/chat.routes'
import { subagentsPendingInteractions } from '@shared/contracts/routes/subagents.routes'
import { subagentsInteractionChanged } from '@shared/contracts/events/subagents.events'
import type { ChatMessageView } from '@shared/types/chat'
import type { BlockOf } from '@shared/types/blocks'
import type { PendingInteraction } from '@shared/types/session'
import { useBridge } from '@renderer/api/bridge'

export type ToolCall = BlockOf<'tool_call'>['toolCall']

/** The call `toolCallId` in a message's blocks (its arguments and server), if it is there. */
export function findCall(
  message: Pick<ChatMessageView, 'blocks'> | undefined,
  toolCallId: string
): ToolCall | null {
  for (const block of message?.blocks ?? [])
    if (block.kind === 'tool_call' && block.toolCall.id === toolCallId) return block.toolCall
  return null
}

/**
 * What the parent's window knows about its subagents' requests: each child's label ("slot · task
 * title") and the call a child's request is about (a child's messages are not loaded in the
 * parent's window, so it is read once per request).
 */
export const useSubagentsStore = defineStore('subagents', () => {
  /** Child session id -> its label, as the subagent events and routes give it. */
  const labels = ref<Record<string, string>>({})
  /** Interaction id -> the child's call (null: not found). */
  const childCalls = ref<Record<string, ToolCall | null>>({})
  let unsubscribe: (() => void) | undefined

  function listen(): void {
    unsubscribe ??= useBridge().on(subagentsInteractionChanged, (p) => {
      labels.value = { ...labels.value, [p.childSessionId]: p.label }
    })
  }

  async function loadLabels(parentSessionId: string): Promise<void> {
    const { pending } = await useBridge().call(subagentsPendingInteractions, { parentSessionId })
    const next = { ...labels.value }
    for (const entry of pending) next[entry.childSessionId] = entry.label
    labels.value = next
  }

  async function loadChildCall(interaction: PendingInteraction): Promise<void> {
    if (!interaction.toolCallId || interaction.id in childCalls.value) return
    const { message } = await useBridge().call(chatGetMessage, { messageId: interaction.messageId })
    childCalls.value = { ...childCalls.value, [interaction.id]: findCall(message, interaction.toolCallId) }
  }

  function dispose(): void {
    unsubscribe?.()
    unsubscribe = undefined
  }

  return { labels, childCalls, listen, loadLabels, loadChildCall, dispose }
})
