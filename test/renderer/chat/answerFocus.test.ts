import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import InteractionCard from '@renderer/components/chat/approvals/InteractionCard.vue'
import { createAppI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/stores/chat'
import { eventually } from '../settings/helpers'
import { useRealBridge } from '../helpers/realBridge'

let bridge: ReturnType<typeof useRealBridge> | undefined
const cleanup: Array<() => void> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) step()
  await bridge?.dispose()
  bridge = undefined
})

function question(id: string, text: string) {
  const data = {
    actionType: 'question' as const,
    interactionId: id,
    toolCallId: `t-${id}`,
    question: { question: text, options: [{ label: 'yes' }, { label: 'no' }], multiple: false, custom: false }
  }
  return {
    blocks: [
      {
        id: `c-${id}`,
        kind: 'tool_call' as const,
        status: 'pending' as const,
        text: '',
        toolCall: { id: `t-${id}`, name: 'question', params: '{}' }
      },
      { id: `a-${id}`, kind: 'action' as const, status: 'pending' as const, text: '', data }
    ],
    interaction: { id, kind: 'question' as const, blockId: `a-${id}`, toolCallId: `t-${id}`, request: data }
  }
}

describe('focus after answering a request', () => {
  it('moves to the next open card, and to the composer once none is left', async () => {
    bridge = useRealBridge()
    const { sessions } = bridge.presenters
    const session = sessions.create({ title: 'Asks twice' })
    sessions.messages.appendUserMessage(session.id, { text: 'plan the release' })
    const message = sessions.messages.createAssistantMessage(session.id)
    const asked = [question('q1', 'Tag it?'), question('q2', 'Publish it?')]
    sessions.pauseMessage(message.id, {
      blocks: asked.flatMap((q) => q.blocks),
      interactions: asked.map((q) => q.interaction)
    })

    const pinia = createPinia()
    setActivePinia(pinia)
    const chat = useChatStore()
    await chat.open(session.id)
    // The cards as their tool calls show them, above the composer.
    const Page = defineComponent(() => () => [
      ...chat.pendingInteractions.map((interaction) =>
        h(InteractionCard, { key: interaction.id, interaction })
      ),
      h('form', { 'data-testid': 'chat-input' }, [h('textarea', { 'data-testid': 'chat-input-text' })])
    ])
    const wrapper = mount(Page, {
      global: { plugins: [pinia, createAppI18n('en-US')] },
      attachTo: document.body
    })
    cleanup.push(() => {
      wrapper.unmount()
      chat.dispose()
    })
    await eventually(() => expect(wrapper.findAll('[data-testid="question-card"]')).toHaveLength(2))
    await eventually(() =>
      expect(document.activeElement?.closest('[data-testid="question-card"]')?.textContent).toContain(
        'Tag it?'
      )
    )

    await wrapper.get('[data-testid="question-option-yes"]').trigger('click')
    await eventually(() => expect(wrapper.findAll('[data-testid="question-card"]')).toHaveLength(1))
    await eventually(() =>
      expect(document.activeElement?.closest('[data-testid="question-card"]')?.textContent).toContain(
        'Publish it?'
      )
    )

    await wrapper.get('[data-testid="question-option-no"]').trigger('click')
    await eventually(() => expect(wrapper.find('[data-testid="question-card"]').exists()).toBe(false))
    await eventually(() =>
      expect(document.activeElement?.getAttribute('data-testid')).toBe('chat-input-text')
    )
  })
})
