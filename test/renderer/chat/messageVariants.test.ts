import { afterEach, describe, expect, it, vi } from 'vitest'
import { defineComponent, h } from 'vue'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/stores/chat'
import UserMessage from '@renderer/components/chat/UserMessage.vue'
import AssistantMessage from '@renderer/components/chat/AssistantMessage.vue'
import UndoDeleteToast from '@renderer/components/chat/branches/UndoDeleteToast.vue'
import { startFakeLlm, type FakeLlm, type FakeScript } from '../../fixtures/llm/fakeLlm'
import { useRealBridge } from '../helpers/realBridge'
import { eventually } from '../settings/helpers'

let bridge: ReturnType<typeof useRealBridge> | undefined
let llm: FakeLlm | undefined
let wrapper: VueWrapper | undefined
afterEach(async () => {
  vi.useRealTimers()
  wrapper?.unmount()
  wrapper = undefined
  if (bridge) useChatStore().dispose()
  await bridge?.dispose()
  bridge = undefined
  await llm?.close()
  llm = undefined
})

/** The chat's messages wired as the chat page wires them (retry, edit, the undo toast). */
const Chat = defineComponent(() => {
  const chat = useChatStore()
  const busy = () => !!chat.activeAssistant
  return () =>
    h('div', [
      ...chat.visibleMessages.map((message) =>
        message.role === 'user'
          ? h(UserMessage, {
              key: message.id,
              message,
              busy: busy(),
              onResend: (text: string) => void chat.editAndResend(message.id, text)
            })
          : h(AssistantMessage, {
              key: message.id,
              message,
              busy: busy(),
              subagents: [],
              onRetry: () => void chat.retry(message.id)
            })
      ),
      h(UndoDeleteToast)
    ])
})

/** The back end runs in this DOM environment; let its fetch ignore browser CORS rules as Node does. */
function letBackEndFetchLikeNode(): void {
  const happyDOM = (
    globalThis as { happyDOM?: { settings: { fetch: { disableSameOriginPolicy: boolean } } } }
  ).happyDOM
  if (happyDOM) happyDOM.settings.fetch.disableSameOriginPolicy = true
}

async function startChat(script: FakeScript, locale: 'en-US' | 'zh-CN' = 'en-US') {
  letBackEndFetchLikeNode()
  bridge = useRealBridge()
  llm = await startFakeLlm({ kind: 'openai', script })
  await bridge.presenters.llmProviders.addProvider({
    id: 'fake',
    kind: 'openai-compatible',
    name: 'Fake',
    baseUrl: llm.baseUrl,
    apiKey: 'sk-test-0123456789abcd',
    models: [{ id: 'fake-model', name: 'Fake model' }],
    maxRetries: 0
  })
  setActivePinia(createPinia())
  const chat = useChatStore()
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [{ path: '/', component: { render: () => null } }]
  })
  wrapper = mount(Chat, { global: { plugins: [createAppI18n(locale), router] } })
  const sessionId = await chat.send('question', {
    newSession: { providerId: 'fake', modelId: 'fake-model' }
  })
  // Opened once the first answer is in (a window opened mid-answer follows it by events too).
  await bridge.presenters.agentRuntime.idle(sessionId)
  await chat.open(sessionId)
  const idle = async () => {
    await bridge!.presenters.agentRuntime.idle(sessionId)
    // The window hears the end of the answer through the bridge's events.
    await eventually(() => expect(chat.activeAssistant).toBeUndefined())
  }
  await idle()
  return { chat, sessionId, idle, w: wrapper }
}

const reply = (text: string) => ({ steps: [{ type: 'text' as const, text }] })
const answers = (w: VueWrapper) => w.findAll('[data-testid="assistant-message"]').map((a) => a.text())

describe('message variants in the chat', () => {
  it('Retry shows the new answer as 2/2; ‹ brings back the old one, and the choice survives reopening', async () => {
    const { chat, sessionId, idle, w } = await startChat([reply('Answer one.'), reply('Answer two.')])
    await eventually(() => expect(w.text()).toContain('Answer one.'))
    expect(w.find('[data-testid="variant-switch"]').exists()).toBe(false)

    await w.get('[data-testid="message-retry"]').trigger('click')
    await idle()
    await eventually(() => expect(w.get('[data-testid="variant-position"]').text()).toBe('2/2'))
    expect(answers(w)).toHaveLength(1)
    expect(answers(w)[0]).toContain('Answer two.')
    expect(w.get('[data-testid="variant-next"]').attributes('disabled')).toBeDefined()
    expect(w.get('[data-testid="variant-switch"]').attributes('aria-label')).toBe('Variant 2 of 2')

    await w.get('[data-testid="variant-previous"]').trigger('click')
    await eventually(() => expect(w.get('[data-testid="variant-position"]').text()).toBe('1/2'))
    expect(answers(w)).toHaveLength(1)
    expect(answers(w)[0]).toContain('Answer one.')
    expect(answers(w)[0]).not.toContain('Answer two.')

    await chat.open(sessionId)
    await eventually(() => expect(w.get('[data-testid="variant-position"]').text()).toBe('1/2'))
    expect(answers(w)[0]).toContain('Answer one.')
  })

  it('Edit keeps the old prompt as 1/2 with its answer', async () => {
    const { idle, w } = await startChat([reply('About cats.'), reply('About dogs.')])
    await eventually(() => expect(w.text()).toContain('About cats.'))
    await w.get('[data-testid="user-edit"]').trigger('click')
    await w.get('[data-testid="user-edit-input"]').setValue('dogs instead')
    await w.get('[data-testid="user-edit-send"]').trigger('submit')
    await idle()
    await eventually(() => expect(w.text()).toContain('About dogs.'))
    const prompt = w.get('[data-testid="user-message"]')
    expect(prompt.text()).toContain('dogs instead')
    expect(prompt.get('[data-testid="variant-position"]').text()).toBe('2/2')
    expect(w.text()).not.toContain('cats')

    await prompt.get('[data-testid="variant-previous"]').trigger('click')
    await eventually(() => expect(w.get('[data-testid="user-message"]').text()).toContain('question'))
    expect(w.text()).toContain('About cats.')
    expect(w.text()).not.toContain('dogs')
  })

  it('Delete takes a prompt and its answer away with an Undo toast that brings them back', async () => {
    const { chat, sessionId, idle, w } = await startChat([reply('First answer.'), reply('Second answer.')])
    await chat.send('second question')
    await idle()
    await eventually(() => expect(w.text()).toContain('Second answer.'))

    const second = w.findAll('[data-testid="user-message"]')[1]
    expect(second.get('[data-testid="message-delete"]').attributes('aria-label')).toBe(
      'Delete this message and its answer'
    )
    await second.get('[data-testid="message-delete"]').trigger('click')
    await eventually(() => expect(w.text()).not.toContain('Second answer.'))
    expect(w.text()).not.toContain('second question')
    expect(w.get('[data-testid="undo-delete-toast"]').text()).toContain('2 messages deleted')
    const exported = await bridge!.presenters.data.exportChat(sessionId, 'markdown')
    expect(exported.content).not.toContain('Second answer.')

    await w.get('[data-testid="undo-delete"]').trigger('click')
    await eventually(() => expect(w.text()).toContain('Second answer.'))
    expect(w.text()).toContain('second question')
    expect(w.find('[data-testid="undo-delete-toast"]').exists()).toBe(false)
  })
})

describe('the undo toast', () => {
  it('leaves after eight seconds and speaks the user language', async () => {
    vi.useFakeTimers()
    setActivePinia(createPinia())
    const chat = useChatStore()
    chat.sessionId = 's1'
    wrapper = mount(UndoDeleteToast, { global: { plugins: [createAppI18n('zh-CN')] } })
    chat.lastDeleted = { sessionId: 's1', messageIds: ['m1'] }
    await flushPromises()
    expect(wrapper.get('[data-testid="undo-delete-toast"]').text()).toContain('消息已删除')
    expect(wrapper.get('[data-testid="undo-delete"]').text()).toBe('撤销')
    vi.advanceTimersByTime(7_900)
    await flushPromises()
    expect(wrapper.find('[data-testid="undo-delete-toast"]').exists()).toBe(true)
    vi.advanceTimersByTime(200)
    await flushPromises()
    expect(wrapper.find('[data-testid="undo-delete-toast"]').exists()).toBe(false)
    // A delete in another chat is not offered here.
    chat.lastDeleted = { sessionId: 'other', messageIds: ['m2'] }
    await flushPromises()
    expect(wrapper.find('[data-testid="undo-delete-toast"]').exists()).toBe(false)
  })
})
