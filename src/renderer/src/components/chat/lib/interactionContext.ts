import { computed, onScopeDispose, ref, watch, type ComputedRef, type Ref } from 'vue'
import { chatGetMessage } from '@shared/contracts/routes/chat.routes'
import { subagentsPendingInteractions } from '@shared/contracts/routes/subagents.routes'
import { subagentsInteractionChanged } from '@shared/contracts/events/subagents.events'
import type { BlockOf } from '@shared/types/blocks'
import type { ChatMessageView } from '@shared/types/chat'
import type { PendingInteraction, SessionRecord } from '@shared/types/session'
import { useBridge } from '@renderer/api/bridge'

interface Sources {
  /** The open chat (the parent when a child asks). */
  sessionId: Ref<string | null>
  /** The request the dialog shows now. */
  current: Ref<PendingInteraction | null>
  /** The open chat's loaded messages. */
  messages: () => readonly ChatMessageView[]
  /** A known session by id (the sidebar's list, children included). */
  session: (id: string) => SessionRecord | undefined
}

type ToolCall = BlockOf<'tool_call'>['toolCall']

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
 * What a permission or question dialog needs beyond the request itself: who asks (a child's
 * label, "slot · task title"), the call's arguments and its server's display name. A child's messages are not loaded in
 * the parent's window, so its call is read from the back end once per request.
 */
export function useInteractionContext(sources: Sources): {
  askedBy: ComputedRef<string | null>
  args: ComputedRef<string | null>
  serverName: ComputedRef<string | null>
} {
  const bridge = useBridge()
  /** Child session id -> its label, as the subagent events and routes give it. */
  const labels = ref<Record<string, string>>({})
  /** Interaction id -> the child's call (fetched). */
  const childCalls = ref<Record<string, ToolCall | null>>({})

  const unsubscribe = bridge.on(subagentsInteractionChanged, (p) => {
    if (p.parentSessionId === sources.sessionId.value)
      labels.value = { ...labels.value, [p.childSessionId]: p.label }
  })
  onScopeDispose(unsubscribe)

  const fromChild = (i: PendingInteraction): boolean =>
    Boolean(sources.sessionId.value && i.sessionId !== sources.sessionId.value)

  async function loadLabels(parentSessionId: string): Promise<void> {
    const { pending } = await bridge.call(subagentsPendingInteractions, { parentSessionId })
    if (parentSessionId !== sources.sessionId.value) return
    const next = { ...labels.value }
    for (const entry of pending) next[entry.childSessionId] = entry.label
    labels.value = next
  }

  async function loadChildArgs(interaction: PendingInteraction): Promise<void> {
    if (!interaction.toolCallId || interaction.id in childCalls.value) return
    const { message } = await bridge.call(chatGetMessage, { messageId: interaction.messageId })
    childCalls.value = { ...childCalls.value, [interaction.id]: findCall(message, interaction.toolCallId) }
  }

  watch(
    sources.current,
    (interaction) => {
      if (!interaction || !fromChild(interaction)) return
      // Either may fail (the child was just deleted): the dialog still works, with less context.
      if (!labels.value[interaction.sessionId] && sources.sessionId.value)
        void loadLabels(sources.sessionId.value).catch(() => undefined)
      void loadChildArgs(interaction).catch(() => undefined)
    },
    { immediate: true }
  )
  watch(sources.sessionId, () => (labels.value = {}))

  const askedBy = computed(() => {
    const interaction = sources.current.value
    if (!interaction || !fromChild(interaction)) return null
    const child = sources.session(interaction.sessionId)
    return labels.value[interaction.sessionId] ?? child?.title ?? child?.subagentMeta?.displayName ?? null
  })
  const call = computed(() => {
    const interaction = sources.current.value
    if (!interaction?.toolCallId) return null
    if (fromChild(interaction)) return childCalls.value[interaction.id] ?? null
    return findCall(
      sources.messages().find((m) => m.id === interaction.messageId),
      interaction.toolCallId
    )
  })
  const args = computed(() => call.value?.params ?? null)
  const serverName = computed(() => call.value?.serverName ?? null)
  return { askedBy, args, serverName }
}
