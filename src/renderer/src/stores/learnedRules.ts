import { defineStore } from 'pinia'
import { ref } from 'vue'
import { permissionsAddRule, permissionsLearnedRuleOffer } from '@shared/contracts/routes/permissions.routes'
import type { LearnedRuleOffer } from '@shared/types/permission'
import { useBridge } from '@renderer/api/bridge'

/**
 * Rules offered after the user allowed the same kind of request again and again (main decides
 * and replays them over every chat's prompts). An offer is only shown: the rule is saved when
 * the user confirms it, and "not now" forgets it.
 */
export const useLearnedRulesStore = defineStore('learnedRules', () => {
  /** By the interaction whose answer earned it. */
  const offers = ref<Record<string, LearnedRuleOffer>>({})
  /** Interactions whose offer was saved (the card says so). */
  const saved = ref<Record<string, true>>({})

  /** Asks main whether the answer to `interactionId` earned a rule; keeps the offer if so. */
  async function check(interactionId: string): Promise<LearnedRuleOffer | null> {
    const { offer } = await useBridge().call(permissionsLearnedRuleOffer, { interactionId })
    if (offer) offers.value = { ...offers.value, [interactionId]: offer }
    return offer
  }

  async function save(interactionId: string): Promise<void> {
    const offer = offers.value[interactionId]
    if (!offer) return
    // A plain copy: a store's reactive object cannot cross IPC.
    const { kind, pattern, effect } = offer.rule
    await useBridge().call(permissionsAddRule, { rule: { kind, pattern, effect } })
    saved.value = { ...saved.value, [interactionId]: true }
    dismiss(interactionId)
  }

  function dismiss(interactionId: string): void {
    const { [interactionId]: _gone, ...rest } = offers.value
    offers.value = rest
  }

  return { offers, saved, check, save, dismiss }
})
