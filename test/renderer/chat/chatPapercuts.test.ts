import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import type { ChatMessageView, MessageBlock } from '@shared/types/chat'
import type { BlockOf } from '@shared/types/blocks'
import { createAppI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/stores/chat'
import ReasoningBlock from '@renderer/components/chat/blocks/ReasoningBlock.vue'
import MarkdownView from '@renderer/components/chat/blocks/MarkdownView.vue'
import AssistantMessage from '@renderer/components/chat/AssistantMessage.vue'
import UserMessage from '@renderer/components/chat/UserMessage.vue'
import { FLASH_MS } from '@renderer/components/chat/lib/flashLabel'
import { markdownReady } from '@renderer/components/chat/lib/markdown'
import { eventually } from '../settings/helpers'
import { useRealBridge } from '../helpers/realBridge'

let bridge: ReturnType<typeof useRealBridge> | undefined
const cleanup: Array<() => void> = []
afterEach(async () => {
  vi.useRealTimers()
  for (const step of cleanup.splice(0).reverse()) step()
  await bridge?.dispose()
  bridge = undefined
})

const i18n = () => createAppI18n('en-US')
const router = () =>
  createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/:p(.*)*', component: { render: () => null } }]
  })

function reasoning(createdAt: number): BlockOf<'reasoning_content'> {
  return {
    id: 'r1',
    kind: 'reasoning_content',
    status: 'pending',
    text: 'Weighing the options',
    createdAt,
    updatedAt: createdAt
  }
}

function message(
  id: string,
  role: 'user' | 'assistant',
  blocks: MessageBlock[],
  text?: string
): ChatMessageView {
  return {
    id,
    sessionId: 's',
    orderSeq: Number(id.replace(/\D/g, '')) || 1,
    role,
    status: 'sent',
    content: text === undefined ? null : { text },
    blocks,
    metadata: {},
    tapeEntryId: null,
    createdAt: 1,
    updatedAt: 1,
    stream: null
  } as ChatMessageView
}

const call = (id: string, name: string): MessageBlock =>
  ({
    id,
    kind: 'tool_call',
    status: 'success',
    text: '',
    toolCall: { id, name, params: '{}', response: 'ok' },
    createdAt: 1,
    updatedAt: 1
  }) as MessageBlock

describe('reasoning', () => {
  it('is open while it streams and collapses with the time it took once done', async () => {
    const started = Date.now() - 2400
    const wrapper = mount(ReasoningBlock, {
      props: { block: reasoning(started), live: true },
      global: { plugins: [i18n()] }
    })
    expect(wrapper.get('[data-testid="reasoning-toggle"]').attributes('aria-expanded')).toBe('true')
    expect(wrapper.text()).toContain('Weighing the options')
    expect(wrapper.get('[data-testid="reasoning-timer"]').text()).toMatch(/^Thinking for 2\.\ds…$/)

    await wrapper.setProps({ live: false, endedAt: started + 3200 })
    expect(wrapper.get('[data-testid="reasoning-toggle"]').attributes('aria-expanded')).toBe('false')
    expect(wrapper.text()).not.toContain('Weighing the options')
    expect(wrapper.get('[data-testid="reasoning-timer"]').text()).toBe('Thought for 3.2s')
  })

  it('stays as the user set it by hand', async () => {
    const wrapper = mount(ReasoningBlock, {
      props: { block: reasoning(Date.now()), live: true },
      global: { plugins: [i18n()] }
    })
    await wrapper.get('[data-testid="reasoning-toggle"]').trigger('click') // closed while streaming
    expect(wrapper.text()).not.toContain('Weighing the options')
    await wrapper.get('[data-testid="reasoning-toggle"]').trigger('click')
    await wrapper.setProps({ live: false, endedAt: Date.now() })
    expect(wrapper.text()).toContain('Weighing the options')
  })
})

describe('a failed answer', () => {
  it('offers one Retry, on its error; a stopped or a good answer keeps the toolbar Retry', () => {
    setActivePinia(createPinia())
    const error = {
      id: 'e1',
      kind: 'error',
      status: 'error',
      text: 'upstream exploded',
      data: { code: 'provider_error', category: 'server' },
      createdAt: 1,
      updatedAt: 1
    } as MessageBlock
    const mountAnswer = (blocks: MessageBlock[]) =>
      mount(AssistantMessage, {
        props: {
          message: { ...message('m2', 'assistant', blocks), status: 'error' },
          busy: false,
          subagents: []
        },
        global: { plugins: [i18n(), router()] }
      })
    const failed = mountAnswer([error])
    expect(failed.findAll('[data-testid="error-retry"], [data-testid="message-retry"]')).toHaveLength(1)
    expect(failed.find('[data-testid="error-retry"]').exists()).toBe(true)

    const stopped = mountAnswer([{ ...error, data: { code: 'user_cancelled' } } as MessageBlock])
    expect(stopped.findAll('[data-testid="message-retry"]')).toHaveLength(1)
    expect(stopped.find('[data-testid="error-retry"]').exists()).toBe(false)
  })
})

describe('a code block', () => {
  it('says Copied, then reads Copy again after a moment', async () => {
    await eventually(() => expect(markdownReady.value).toBe(true))
    const wrapper = mount(MarkdownView, {
      props: { text: '```js\nconst a = 1\n```\n\nafter\n' },
      global: { plugins: [i18n()] },
      attachTo: document.body
    })
    cleanup.push(() => wrapper.unmount())
    const copy = () => wrapper.get('[data-copy-code]')
    vi.useFakeTimers()
    await copy().trigger('click')
    await vi.waitFor(() => expect(copy().text()).toBe('Copied'))
    vi.advanceTimersByTime(FLASH_MS - 100)
    expect(copy().text()).toBe('Copied')
    vi.advanceTimersByTime(200)
    expect(copy().text()).toBe('Copy')
    expect(await navigator.clipboard.readText()).toBe('const a = 1\n')
  })
})

describe('"Restore files to before this"', () => {
  it('shows only under a user message whose turn changed files', async () => {
    bridge = useRealBridge()
    const pinia = createPinia()
    setActivePinia(pinia)
    const chat = useChatStore()
    chat.messages = [
      message('m1', 'user', [], 'just talk'),
      message('m2', 'assistant', [call('c1', 'read')]),
      message('m3', 'user', [], 'now change a file'),
      message('m4', 'assistant', [call('c2', 'read'), call('c3', 'write')])
    ]
    const mountUser = (m: ChatMessageView) =>
      mount(UserMessage, { props: { message: m, busy: false }, global: { plugins: [pinia, i18n()] } })
    await flushPromises()
    expect(mountUser(chat.messages[0]).find('[data-testid="user-restore-before"]').exists()).toBe(false)
    expect(mountUser(chat.messages[2]).find('[data-testid="user-restore-before"]').exists()).toBe(true)
  })
})
