import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h } from 'vue'
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import MarkdownIt from 'markdown-it'
import FindBar from '@renderer/components/chat/find/FindBar.vue'
import { matchRanges } from '@renderer/components/chat/find/findDom'
import { createAppI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/stores/chat'
import { eventually } from '../settings/helpers'
import { useRealBridge } from '../helpers/realBridge'
import type { Presenters } from '../../../src/main/presenter'

let bridge: ReturnType<typeof useRealBridge> | undefined
const cleanup: Array<() => void> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) step()
  await bridge?.dispose()
  bridge = undefined
})

/** A long chat: 90 turns (three pages of the window's 60 messages), "zebra" in three places. */
function longChat(presenters: Presenters) {
  const { sessions } = presenters
  const session = sessions.create({ title: 'Long' })
  const ids: Record<string, string> = {}
  for (let turn = 0; turn < 90; turn++) {
    const user = sessions.messages.appendUserMessage(session.id, {
      text: turn === 2 ? 'Tell me about the Zebra and the zebra crossing' : `question ${turn}`
    })
    const answer = sessions.messages.createAssistantMessage(session.id)
    const text = turn === 45 ? 'A ZEBRA has stripes.' : turn === 89 ? 'Last word: zebra.' : `answer ${turn}`
    sessions.messages.finalizeAssistantMessage(answer.id, {
      status: 'sent',
      blocks: [{ id: `c${turn}`, kind: 'content', status: 'success', text }]
    })
    if (turn === 2) ids.oldest = user.id
    if (turn === 89) ids.newest = answer.id
  }
  return { sessionId: session.id, ids }
}

async function openFind(presenters: Presenters, sessionId: string) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const chat = useChatStore()
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/chat/:sessionId', component: { render: () => null } }]
  })
  await router.push(`/chat/${sessionId}`)
  await chat.open(sessionId)
  // The list as the page renders it: a row per loaded message with its words.
  const Page = defineComponent(() => () => [
    h(FindBar, { sessionId }),
    h(
      'div',
      { 'data-testid': 'message-list' },
      chat.messages.map((m) =>
        h('div', { key: m.id, 'data-message-id': m.id }, [
          m.role === 'user'
            ? h('div', { 'data-testid': 'user-text' }, m.content?.text ?? '')
            : h('div', { 'data-testid': 'content-block' }, m.blocks.map((b) => b.text).join('\n'))
        ])
      )
    ),
    h('textarea', { 'data-testid': 'chat-input-text' })
  ])
  const wrapper = mount(Page, {
    global: { plugins: [pinia, router, createAppI18n('en-US')] },
    attachTo: document.body
  })
  cleanup.push(() => {
    wrapper.unmount()
    chat.dispose()
  })
  return { wrapper, chat }
}

describe('find in chat', () => {
  it('searches the whole chat, counts "n of m", and reads older pages to reach a hit', async () => {
    bridge = useRealBridge()
    const { sessionId, ids } = longChat(bridge.presenters)
    const { wrapper, chat } = await openFind(bridge.presenters, sessionId)
    // The message whose hit was last scrolled into view (happy-dom has no layout to read).
    const scrolled: Element[] = []
    const original = Element.prototype.scrollIntoView
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this)
    }
    cleanup.push(() => (Element.prototype.scrollIntoView = original))
    const scrolledTo = () => scrolled.at(-1)?.closest('[data-message-id]')?.getAttribute('data-message-id')
    expect(chat.messages).toHaveLength(60)
    expect(chat.messages.some((m) => m.id === ids.oldest)).toBe(false)

    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'f', ctrlKey: true }))
    await eventually(() => expect(wrapper.find('[data-testid="find-bar"]').exists()).toBe(true))
    const input = wrapper.get('[data-testid="find-input"]')
    expect(document.activeElement).toBe(input.element)

    await input.setValue('zebra')
    const status = () => wrapper.get('[data-testid="find-status"]').text()
    await eventually(() => expect(status()).toBe('4 of 4'))
    await eventually(() => expect(scrolledTo()).toBe(ids.newest))

    // Enter past the newest wraps to the oldest: two pages away, read on the way.
    await input.trigger('keydown', { key: 'Enter' })
    await eventually(() => expect(status()).toBe('1 of 4'))
    await eventually(() => expect(scrolledTo()).toBe(ids.oldest))
    expect(chat.messages.some((m) => m.id === ids.oldest)).toBe(true)
    await input.trigger('keydown', { key: 'Enter' })
    await eventually(() => expect(status()).toBe('2 of 4'))
    await input.trigger('keydown', { key: 'Enter', shiftKey: true })
    await input.trigger('keydown', { key: 'Enter', shiftKey: true })
    await eventually(() => expect(status()).toBe('4 of 4'))

    await input.setValue('okapi')
    await eventually(() => expect(status()).toBe('No results'))

    await input.trigger('keydown', { key: 'Escape' })
    await eventually(() => expect(wrapper.find('[data-testid="find-bar"]').exists()).toBe(false))
    expect(document.activeElement?.getAttribute('data-testid')).toBe('chat-input-text')
  })

  it('finds and marks a phrase that crosses formatting ("foo **bar**" as "foo bar"), never one across blocks', async () => {
    bridge = useRealBridge()
    const { sessions } = bridge.presenters
    const session = sessions.create({ title: 'Formatting' })
    sessions.messages.appendUserMessage(session.id, { text: 'format please' })
    const answer = sessions.messages.createAssistantMessage(session.id)
    const text = 'We need foo **bar** and `baz` _qux_ today.\n\nFirst ends here.\n\nNext one.'
    sessions.messages.finalizeAssistantMessage(answer.id, {
      status: 'sent',
      blocks: [{ id: 'c1', kind: 'content', status: 'success', text }]
    })
    const pinia = createPinia()
    setActivePinia(pinia)
    const chat = useChatStore()
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [{ path: '/chat/:sessionId', component: { render: () => null } }]
    })
    await router.push(`/chat/${session.id}`)
    await chat.open(session.id)
    // The reply rendered as markdown, the way the chat shows it (a <strong>, a <code>, an <em>).
    const Page = defineComponent(() => () => [
      h(FindBar, { sessionId: session.id }),
      h(
        'div',
        { 'data-testid': 'message-list' },
        chat.messages.map((m) =>
          h('div', { key: m.id, 'data-message-id': m.id }, [
            m.role === 'user'
              ? h('div', { 'data-testid': 'user-text' }, m.content?.text ?? '')
              : h('div', {
                  'data-testid': 'content-block',
                  innerHTML: new MarkdownIt().render(m.blocks[0].text)
                })
          ])
        )
      ),
      h('textarea', { 'data-testid': 'chat-input-text' })
    ])
    const wrapper = mount(Page, {
      global: { plugins: [pinia, router, createAppI18n('en-US')] },
      attachTo: document.body
    })
    cleanup.push(() => {
      wrapper.unmount()
      chat.dispose()
    })
    const scrolled: Element[] = []
    const original = Element.prototype.scrollIntoView
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this)
    }
    cleanup.push(() => (Element.prototype.scrollIntoView = original))

    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'f', ctrlKey: true }))
    await eventually(() => expect(wrapper.find('[data-testid="find-bar"]').exists()).toBe(true))
    const input = wrapper.get('[data-testid="find-input"]')
    const status = () => wrapper.get('[data-testid="find-status"]').text()
    await input.setValue('foo bar')
    await eventually(() => expect(status()).toBe('1 of 1'))
    // The hit was located in the rendered reply: its paragraph was scrolled to, not just the row.
    await eventually(() => expect(scrolled.at(-1)?.tagName).toBe('P'))
    const block = document.querySelector('[data-testid="content-block"]')!
    expect(matchRanges(block, 'foo bar').map((r) => r.toString())).toEqual(['foo bar'])
    expect(matchRanges(block, 'and baz qux').map((r) => r.toString())).toEqual(['and baz qux'])

    await input.setValue('here. next')
    await eventually(() => expect(status()).toBe('No results'))
    expect(matchRanges(block, 'here. next')).toEqual([])
  })
})
