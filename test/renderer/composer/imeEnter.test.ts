import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount, type DOMWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import type { ChatMessageView } from '@shared/types/chat'
import type { SessionRecord } from '@shared/types/session'
import UserMessage from '@renderer/components/chat/UserMessage.vue'
import SessionItem from '@renderer/components/chat/sidebar/SessionItem.vue'
import FieldsDialog from '@renderer/components/chat/input/FieldsDialog.vue'
import ChatInput, { type ComposerMessage } from '@renderer/components/chat/input/ChatInput.vue'
import { createAppI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/stores/chat'
import { isCommitEnter } from '@renderer/lib/imeKeys'
import { useRealBridge } from '../helpers/realBridge'

let bridge: ReturnType<typeof useRealBridge> | undefined
const cleanup: Array<() => void> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) step()
  await bridge?.dispose()
  bridge = undefined
})

/** The keydowns an input method sends while the user picks a candidate (Chromium, and Safari's last one). */
const COMPOSING = ['isComposing', 'keyCode229'] as const

function press(
  target: Omit<DOMWrapper<Element>, 'exists'>,
  key: string,
  how?: (typeof COMPOSING)[number]
): void {
  const event = new KeyboardEvent('keydown', {
    key,
    bubbles: true,
    cancelable: true,
    isComposing: how === 'isComposing'
  })
  if (how === 'keyCode229') Object.defineProperty(event, 'keyCode', { value: 229 })
  target.element.dispatchEvent(event)
}

const userMessage = {
  id: 'm1',
  sessionId: 's',
  orderSeq: 1,
  role: 'user',
  status: 'sent',
  content: { text: 'hello' },
  blocks: [],
  metadata: {},
  tapeEntryId: null,
  createdAt: 1,
  updatedAt: 1,
  stream: null
} as unknown as ChatMessageView

const session = {
  id: 's1',
  kind: 'regular',
  parentSessionId: null,
  tapeId: 't',
  title: 'Old title',
  workspaceDir: '/w',
  workspaceIsScratch: false,
  providerId: null,
  modelId: null,
  permissionMode: 'default',
  generationSettings: {},
  pinned: false,
  status: 'idle',
  createdAt: 1,
  updatedAt: 1,
  lastActivityAt: 1
} as unknown as SessionRecord

describe('Enter while an input method is composing', () => {
  it('is told apart from a committing Enter by one helper', () => {
    expect(isCommitEnter(new KeyboardEvent('keydown', { key: 'Enter' }))).toBe(true)
    expect(isCommitEnter(new KeyboardEvent('keydown', { key: 'Enter', shiftKey: true }))).toBe(false)
    expect(isCommitEnter(new KeyboardEvent('keydown', { key: 'Enter', isComposing: true }))).toBe(false)
    const safari = new KeyboardEvent('keydown', { key: 'Enter' })
    Object.defineProperty(safari, 'keyCode', { value: 229 })
    expect(isCommitEnter(safari)).toBe(false)
  })

  it.each(COMPOSING)('does not resend a half-composed edit of a message (%s)', async (how) => {
    const wrapper = mount(UserMessage, {
      props: { message: userMessage, busy: false },
      global: { plugins: [createPinia(), createAppI18n('zh-CN')] },
      attachTo: document.body
    })
    cleanup.push(() => wrapper.unmount())
    await wrapper.get('[data-testid="user-edit"]').trigger('click')
    const box = wrapper.get('[data-testid="user-edit-input"]')
    await box.setValue('你好 shi')
    press(box, 'Enter', how)
    press(box, 'Escape', how)
    await flushPromises()
    expect(wrapper.emitted('resend')).toBeUndefined()
    expect(wrapper.find('[data-testid="user-edit-input"]').exists()).toBe(true)

    await box.setValue('你好世界')
    press(box, 'Enter')
    await flushPromises()
    expect(wrapper.emitted('resend')).toEqual([['你好世界']])
  })

  it.each(COMPOSING)('does not commit the sidebar rename box mid-composition (%s)', async (how) => {
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [{ path: '/:p(.*)*', component: { render: () => null } }]
    })
    const wrapper = mount(SessionItem, {
      props: { session, active: false },
      global: { plugins: [createAppI18n('zh-CN'), router] },
      attachTo: document.body
    })
    cleanup.push(() => wrapper.unmount())
    await wrapper.get('[data-testid="session-rename"]').trigger('click')
    const input = wrapper.get('[data-testid="session-rename-input"]')
    await input.setValue('新的标')
    press(input, 'Enter', how)
    press(input, 'Escape', how)
    await flushPromises()
    expect(wrapper.emitted('rename')).toBeUndefined()
    expect(wrapper.find('[data-testid="session-rename-input"]').exists()).toBe(true)

    await input.setValue('新的标题')
    press(input, 'Enter')
    await flushPromises()
    expect(wrapper.emitted('rename')).toEqual([['新的标题']])
  })

  it.each(COMPOSING)("does not submit a prompt's fields form mid-composition (%s)", async (how) => {
    const wrapper = mount(FieldsDialog, {
      props: {
        title: 'Prompt',
        fields: [{ name: 'topic', label: 'Topic', required: true }],
        submitLabel: 'Insert'
      },
      global: { plugins: [createAppI18n('zh-CN')] },
      attachTo: document.body
    })
    cleanup.push(() => wrapper.unmount())
    const box = wrapper.get('[data-testid="field-topic"]')
    await box.setValue('猫')
    press(box, 'Enter', how)
    await flushPromises()
    expect(wrapper.emitted('submit')).toBeUndefined()
    press(box, 'Enter')
    await flushPromises()
    expect(wrapper.emitted('submit')).toEqual([[{ topic: '猫' }]])
  })

  it.each(COMPOSING)('does not send from the main composer mid-composition (%s)', async (how) => {
    bridge = useRealBridge()
    const pinia = createPinia()
    setActivePinia(pinia)
    await useChatStore().open(null)
    const sent: ComposerMessage[] = []
    const wrapper = mount(ChatInput, {
      props: {
        running: false,
        blocked: false,
        locked: false,
        providers: [],
        send: async (message: ComposerMessage) => (sent.push(message), true)
      },
      global: { plugins: [pinia, createAppI18n('zh-CN')] },
      attachTo: document.body
    })
    cleanup.push(() => {
      wrapper.unmount()
      useChatStore(pinia).dispose()
    })
    const box = wrapper.get('[data-testid="chat-input-text"]')
    await box.setValue('ni hao')
    press(box, 'Enter', how)
    await flushPromises()
    expect(sent).toEqual([])
    press(box, 'Enter')
    await flushPromises()
    expect(sent.map((m) => m.text)).toEqual(['ni hao'])
  })
})
