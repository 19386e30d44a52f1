import { afterEach, describe, expect, it, vi } from 'vitest'
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import type { BlockOf, ErrorBlockData } from '@shared/types/blocks'
import type { ProviderErrorCategory } from '@shared/types/llm'
import { createAppI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/stores/chat'
import ErrorBlock from '@renderer/components/chat/blocks/ErrorBlock.vue'
import RetryCountdown from '@renderer/components/chat/blocks/RetryCountdown.vue'

const CATEGORIES: ProviderErrorCategory[] = [
  'rate_limited',
  'overloaded',
  'server',
  'auth',
  'bad_request',
  'context_too_long',
  'network',
  'timeout',
  'no_response'
]

function errorBlock(data: ErrorBlockData, text = 'provider says no'): BlockOf<'error'> {
  return { id: 'e1', kind: 'error', status: 'error', text, data, createdAt: 1, updatedAt: 1 }
}

function mountError(block: BlockOf<'error'>, locale: 'en-US' | 'zh-CN' = 'en-US') {
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', component: { render: () => null } },
      { path: '/settings/providers', name: 'settings-providers', component: { render: () => null } }
    ]
  })
  return mount(ErrorBlock, {
    props: { block, canRetry: true },
    global: { plugins: [createAppI18n(locale), router] }
  })
}

afterEach(() => vi.useRealTimers())

describe('the error marker', () => {
  it.each(['en-US', 'zh-CN'] as const)('words each provider failure category differently (%s)', (locale) => {
    const titles = CATEGORIES.map((category) =>
      mountError(errorBlock({ code: 'provider_error', category }), locale)
        .get('[data-testid="error-title"]')
        .text()
    )
    expect(new Set(titles).size).toBe(CATEGORIES.length)
    expect(titles.some((t) => t.includes('chat.errors'))).toBe(false)
  })

  it('links a rejected key to the provider settings', () => {
    const auth = mountError(errorBlock({ code: 'provider_error', category: 'auth', status: 401 }))
    expect(auth.get('[data-testid="error-open-settings"]').attributes('href')).toBe('/settings/providers')
    const server = mountError(errorBlock({ code: 'provider_error', category: 'server' }))
    expect(server.find('[data-testid="error-open-settings"]').exists()).toBe(false)
  })

  it("shows a refused request with the provider's own message", () => {
    const wrapper = mountError(
      errorBlock({ code: 'provider_error', category: 'bad_request' }, "'temperature' must be at most 2")
    )
    expect(wrapper.text()).toContain("'temperature' must be at most 2")
    expect(wrapper.get('[data-testid="error-hint"]').text()).toBe('Their message:')
  })

  it('shows Stop as a neutral marker without Retry', () => {
    const wrapper = mountError(errorBlock({ code: 'user_cancelled' }, 'Stopped by the user.'))
    expect(wrapper.find('[data-testid="error-block"]').exists()).toBe(false)
    expect(wrapper.find('[role="alert"]').exists()).toBe(false)
    expect(wrapper.get('[data-testid="stopped-marker"]').text()).toBe('Stopped')
    expect(wrapper.find('[data-testid="error-retry"]').exists()).toBe(false)
  })
})

describe('the retry countdown', () => {
  it('counts down to the next attempt and goes away when the stream resumes', async () => {
    vi.useFakeTimers({ now: 1_000_000 })
    setActivePinia(createPinia())
    const chat = useChatStore()
    chat.retrying.m1 = {
      sessionId: 's1',
      messageId: 'm1',
      runId: 'r1',
      attempt: 1,
      maxRetries: 2,
      delayMs: 7_000,
      retryAt: 1_007_000,
      category: 'rate_limited',
      message: 'Slow down'
    }
    const wrapper = mount(RetryCountdown, {
      props: { messageId: 'm1' },
      global: { plugins: [createAppI18n('en-US')] }
    })
    const text = () => wrapper.get('[data-testid="retry-countdown"]').text()
    expect(text()).toBe('The provider is rate-limiting requests — retrying in 7 s (attempt 1 of 2)')
    await vi.advanceTimersByTimeAsync(3_000)
    expect(text()).toContain('retrying in 4 s')
    await vi.advanceTimersByTimeAsync(4_000)
    expect(text()).toContain('retrying now')
    delete chat.retrying.m1
    await wrapper.vm.$nextTick()
    expect(wrapper.find('[data-testid="retry-countdown"]').exists()).toBe(false)
    wrapper.unmount()
  })
})
