import { computed, watch, type ComputedRef, type Ref } from 'vue'
import type { ChatMessageView } from '@shared/types/chat'
import type { PendingInteraction, SessionRecord } from '@shared/types/session'
import { findCall, useSubagentsStore } from '@renderer/stores/subagents'

interface Sources {
  /** The open chat (the parent when a child asks). */
  sessionId: Ref<string | null>
  /** The request the card shows. */
  current: Readonly<Ref<PendingInteraction | null>>
  /** The open chat's loaded messages. */
  messages: () => readonly ChatMessageView[]
  /** A known session by id (the sidebar's list, children included). */
  session: (id: string) => SessionRecord | undefined
}

/**
 * What a permission or question card needs beyond the request itself: who asks (a child's
 * label, "slot · task title"), the call's arguments and its server's display name.
 */
export function useInteractionContext(sources: Sources): {
  askedBy: ComputedRef<string | null>
  args: ComputedRef<string | null>
  serverName: ComputedRef<string | null>
} {
  const subagents = useSubagentsStore()
  subagents.listen()

  const fromChild = (i: PendingInteraction): boolean =>
    Boolean(sources.sessionId.value && i.sessionId !== sources.sessionId.value)

  watch(
    sources.current,
    (interaction) => {
      if (!interaction || !fromChild(interaction)) return
      // Either may fail (the child was just deleted): the dialog still works, with less context.
      if (!subagents.labels[interaction.sessionId] && sources.sessionId.value)
        void subagents.loadLabels(sources.sessionId.value).catch(() => undefined)
      void subagents.loadChildCall(interaction).catch(() => undefined)
    },
    { immediate: true }
  )

  const askedBy = computed(() => {
    const interaction = sources.current.value
    if (!interaction || !fromChild(interaction)) return null
    const child = sources.session(interaction.sessionId)
    return subagents.labels[interaction.sessionId] ?? child?.title ?? child?.subagentMeta?.displayName ?? null
  })
  const call = computed(() => {
    const interaction = sources.current.value
    if (!interaction?.toolCallId) return null
    if (fromChild(interaction)) return subagents.childCalls[interaction.id] ?? null
    return findCall(
      sources.messages().find((m) => m.id === interaction.messageId),
      interaction.toolCallId
    )
  })
  const args = computed(() => call.value?.params ?? null)
  const serverName = computed(() => call.value?.serverName ?? null)
  return { askedBy, args, serverName }
}
