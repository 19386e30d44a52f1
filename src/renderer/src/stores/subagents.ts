import { defineStore } from 'pinia'
import { ref } from 'vue'
import { chatGetMessage } from '@shared/contracts/routes/chat.routes'
import { subagentsListRuns, subagentsPendingInteractions } from '@shared/contracts/routes/subagents.routes'
import { subagentsInteractionChanged, subagentsRunUpdated } from '@shared/contracts/events/subagents.events'
import type { ChatMessageView } from '@shared/types/chat'
import type { SubagentRunView } from '@shared/types/subagents'
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
 * parent's window, so it is read once per request), and the runs of the parents on screen.
 */
export const useSubagentsStore = defineStore('subagents', () => {
  /** Child session id -> its label, as the subagent events and routes give it. */
  const labels = ref<Record<string, string>>({})
  /** Interaction id -> the child's call (null: not found). */
  const childCalls = ref<Record<string, ToolCall | null>>({})
  /** Parent session id -> its runs, for the parents followed (read once, then live). */
  const runs = ref<Record<string, SubagentRunView[]>>({})
  let unsubscribe: (() => void) | undefined
  let offRuns: (() => void) | undefined

  function upsertRun(parentSessionId: string, run: SubagentRunView): void {
    const list = runs.value[parentSessionId]
    if (!list) return // a parent nobody follows
    const index = list.findIndex((r) => r.runId === run.runId)
    // Events and the initial read can cross: the newer view wins.
    if (index === -1) runs.value = { ...runs.value, [parentSessionId]: [...list, run] }
    else if (list[index].updatedAt <= run.updatedAt)
      runs.value = { ...runs.value, [parentSessionId]: list.map((r, i) => (i === index ? run : r)) }
  }

  /**
   * Reads a parent's runs and keeps them live: every `subagents.run.updated` replaces its run
   * (the event carries the whole run view).
   */
  async function followRuns(parentSessionId: string): Promise<void> {
    offRuns ??= useBridge().on(subagentsRunUpdated, (p) => upsertRun(p.parentSessionId, p.run))
    if (!runs.value[parentSessionId]) runs.value = { ...runs.value, [parentSessionId]: [] }
    try {
      const result = await useBridge().call(subagentsListRuns, { parentSessionId })
      for (const run of result.runs) upsertRun(parentSessionId, run)
    } catch {
      // A parent without runs (or gone) simply shows no rows.
    }
  }

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
    offRuns?.()
    offRuns = undefined
  }

  return { labels, childCalls, runs, listen, loadLabels, loadChildCall, followRuns, dispose }
})
