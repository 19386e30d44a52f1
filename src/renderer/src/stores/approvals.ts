import { defineStore } from 'pinia'
import { computed } from 'vue'
import { checkpointsPreviewWrite } from '@shared/contracts/routes/checkpoints.routes'
import { commandPreviewGet } from '@shared/contracts/routes/commandPreview.routes'
import type { CommandPreview } from '@shared/types/commandPreview'
import type { InteractionResponse } from '@shared/types/chat'
import type { WritePreviewFile } from '@shared/types/checkpoints'
import type { PendingInteraction } from '@shared/types/session'
import { useBridge } from '@renderer/api/bridge'
import { useChatStore } from './chat'
import { placeInteractions } from './lib/interactionPlacement'
import { useLearnedRulesStore } from './learnedRules'

/** Answers a learned rule may follow: "always" already saved one, a denial earns none. */
const LEARNS_FROM = new Set(['allow_once', 'allow_session'])

/**
 * The open chat's requests as cards: which tool call each one sits on (or docked above the
 * input when its call is not on screen), which card the keyboard lands on, and the answers.
 * The requests themselves are the chat store's (the open chat and its subagents).
 */
export const useApprovalsStore = defineStore('approvals', () => {
  const chat = useChatStore()
  const learnedRules = useLearnedRulesStore()
  const placement = computed(() => placeInteractions(chat.pendingInteractions, chat.messages, chat.sessionId))
  const docked = computed(() => placement.value.docked)
  const count = computed(() => chat.pendingInteractions.length)
  /** The oldest open request: its card takes the focus when nothing else has it. */
  const firstId = computed(() => chat.pendingInteractions[0]?.id ?? null)

  function onCall(toolCallId: string | undefined): PendingInteraction[] {
    return toolCallId ? (placement.value.onCall.get(toolCallId) ?? []) : []
  }

  /** The request is open and shown as a card in this window. */
  const isOpen = (interactionId: string) => chat.pendingInteractions.some((i) => i.id === interactionId)

  /**
   * A request answered elsewhere (another window) is simply gone from the list. An allowed
   * permission may have earned a rule: main is asked, and an offer shows under the answer.
   */
  async function respond(interaction: PendingInteraction, response: InteractionResponse): Promise<void> {
    await chat.respond(interaction, response)
    if (response.kind === 'permission' && LEARNS_FROM.has(response.decision))
      void learnedRules.check(interaction.id).catch(() => undefined)
  }

  async function previewWrite(interaction: PendingInteraction): Promise<WritePreviewFile[]> {
    const { files } = await useBridge().call(checkpointsPreviewWrite, {
      sessionId: interaction.sessionId,
      interactionId: interaction.id
    })
    return files
  }

  /** A pending command run first on a copy of the workspace; resolves when main's preview is done. */
  async function previewCommand(interaction: PendingInteraction): Promise<CommandPreview> {
    const { preview } = await useBridge().call(commandPreviewGet, {
      sessionId: interaction.sessionId,
      interactionId: interaction.id
    })
    return preview
  }

  return { docked, count, firstId, onCall, isOpen, respond, previewWrite, previewCommand }
})
