import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia } from 'pinia'
import type { ChatMessageView, MessageBlock } from '@shared/types/chat'
import MessageToolbar from '@renderer/components/chat/MessageToolbar.vue'
import UserMessage from '@renderer/components/chat/UserMessage.vue'
import { createAppI18n } from '@renderer/i18n'

function block(id: string, kind: 'content' | 'reasoning_content', text: string): MessageBlock {
  return { id, kind, status: 'success', text, createdAt: 1, updatedAt: 1 }
}

function message(role: 'user' | 'assistant', blocks: MessageBlock[], text?: string): ChatMessageView {
  return {
    id: `m-${role}`,
    sessionId: 's',
    orderSeq: 1,
    role,
    status: 'sent',
    content: text === undefined ? null : { text },
    blocks,
    metadata: { usage: { inputTokens: 12, outputTokens: 34 } },
    tapeEntryId: null,
    createdAt: 1,
    updatedAt: 1,
    stream: null
  } as ChatMessageView
}

const plugins = { global: { plugins: [createAppI18n('en-US')] } }

describe('copying a message', () => {
  it("copies an answer's text blocks only (no reasoning, no tool output) and says so", async () => {
    const answer = message('assistant', [
      block('r', 'reasoning_content', 'secret thoughts'),
      block('a', 'content', 'First part.'),
      {
        id: 't',
        kind: 'tool_call',
        status: 'success',
        text: 'tool noise',
        toolCall: { id: 'c', name: 'read', params: '{}', response: 'tool output' },
        createdAt: 1,
        updatedAt: 1
      },
      block('b', 'content', 'Second part.')
    ])
    const wrapper = mount(MessageToolbar, { props: { message: answer, busy: false }, ...plugins })
    expect(wrapper.get('[data-testid="message-usage"]').text()).toBe('12 in · 34 out tokens')
    await wrapper.get('[data-testid="message-copy"]').trigger('click')
    await flushPromises()
    expect(await navigator.clipboard.readText()).toBe('First part.\n\nSecond part.')
    expect(wrapper.get('[data-testid="message-copy"]').text()).toBe('Copied')
  })

  it("copies the user's own text", async () => {
    const wrapper = mount(UserMessage, {
      props: { message: message('user', [], 'What is  2+2?\nThanks'), busy: false },
      global: { plugins: [createAppI18n('en-US'), createPinia()] }
    })
    await wrapper.get('[data-testid="user-copy"]').trigger('click')
    await flushPromises()
    expect(await navigator.clipboard.readText()).toBe('What is  2+2?\nThanks')
    expect(wrapper.get('[data-testid="user-copy"]').text()).toBe('Copied')
  })
})
