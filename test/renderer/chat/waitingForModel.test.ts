import { afterEach, describe, expect, it, vi } from 'vitest'
import { computed, defineComponent, h } from 'vue'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/stores/chat'
import AssistantMessage from '@renderer/components/chat/AssistantMessage.vue'
import { startFakeLlm, type FakeLlm, type FakeScript } from '../../fixtures/llm/fakeLlm'
import { useRealBridge } from '../helpers/realBridge'
import { eventually } from '../settings/helpers'

/**
 * A provider that accepts the request and never sends a byte: the answer shows how long it has
 * waited, offers Stop and Stop-and-retry after a short wait, and the provider's own idle timeout
 * ends the turn with its own category.
 */
let bridge: ReturnType<typeof useRealBridge> | undefined
let llm: FakeLlm | undefined
let wrapper: ReturnType<typeof mount> | undefined
afterEach(async () => {
  vi.useRealTimers()
  wrapper?.unmount()
  wrapper = undefined
  useChatStore().dispose()
  await bridge?.dispose()
  bridge = undefined
  await llm?.close()
  llm = undefined
})

/** The newest answer of the open chat, as the chat page renders it, with Retry wired the same way. */
const LatestAnswer = defineComponent(() => {
  const chat = useChatStore()
  const latest = computed(() => [...chat.messages].reverse().find((m) => m.role === 'assistant'))
  return () =>
    latest.value
      ? h(AssistantMessage, {
          key: latest.value.id,
          message: latest.value,
          busy: !!chat.activeAssistant,
          subagents: [],
          onRetry: () => void chat.retry(latest.value!.id)
        })
      : null
})

/**
 * The back end runs in this DOM environment, where fetch follows browser CORS rules; in the app
 * it runs in Node, which has none.
 */
function letBackEndFetchLikeNode(): void {
  const happyDOM = (
    globalThis as { happyDOM?: { settings: { fetch: { disableSameOriginPolicy: boolean } } } }
  ).happyDOM
  if (happyDOM) happyDOM.settings.fetch.disableSameOriginPolicy = true
}

async function startChat(script: FakeScript, idleTimeoutSeconds?: number) {
  letBackEndFetchLikeNode()
  bridge = useRealBridge()
  llm = await startFakeLlm({ kind: 'openai', script })
  const provider = await bridge.presenters.llmProviders.addProvider({
    id: 'stuck-gateway',
    kind: 'openai-compatible',
    name: 'Stuck gateway',
    baseUrl: llm.baseUrl,
    apiKey: 'sk-test-0123456789abcd',
    models: [{ id: 'fake-model', name: 'Fake model' }],
    maxRetries: 0,
    ...(idleTimeoutSeconds ? { idleTimeoutSeconds } : {})
  })
  setActivePinia(createPinia())
  const chat = useChatStore()
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', component: { render: () => null } },
      { path: '/settings/providers', name: 'settings-providers', component: { render: () => null } }
    ]
  })
  wrapper = mount(LatestAnswer, { global: { plugins: [createAppI18n('en-US'), router] } })
  const sessionId = await chat.send('Hello?', {
    newSession: { providerId: provider.id, modelId: 'fake-model' }
  })
  await chat.open(sessionId)
  await llm.waitForRequests(1)
  return { chat, wrapper }
}

describe('an answer that receives nothing', () => {
  it('counts the seconds it has waited and offers Stop and retry after a short wait', async () => {
    // The clock is moved by hand; everything else (back end, sockets) runs in real time.
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'], shouldAdvanceTime: true })
    const { wrapper } = await startChat([
      { steps: [{ type: 'stall' }] },
      { steps: [{ type: 'text', text: 'Here after all.' }] }
    ])
    await eventually(() => expect(wrapper.find('[data-testid="assistant-waiting"]').exists()).toBe(true))
    expect(wrapper.find('[data-testid="waiting-retry"]').exists()).toBe(false)

    vi.advanceTimersByTime(12_000)
    await flushPromises()
    expect(wrapper.get('[data-testid="assistant-waiting-text"]').text()).toMatch(
      /^Waiting for the model… 1[2-3] s$/
    )
    await wrapper.get('[data-testid="waiting-retry"]').trigger('click')

    // The stuck request is closed and the question asked again; the second answer arrives.
    await eventually(() => expect(wrapper.text()).toContain('Here after all.'))
    expect(llm!.generationRequests()).toHaveLength(2)
    expect(llm!.generationRequests()[0].clientClosedAt).toBeDefined()
  })

  it("ends the turn as 'The model sent nothing' once the provider's idle timeout passes", async () => {
    const started = Date.now()
    const { wrapper } = await startChat([{ steps: [{ type: 'stall' }] }], 1)
    await eventually(() => expect(wrapper.find('[data-testid="error-block"]').exists()).toBe(true))
    const error = wrapper.get('[data-testid="error-block"]')
    expect(error.attributes('data-category')).toBe('no_response')
    expect(error.get('[data-testid="error-title"]').text()).toBe('The model sent nothing')
    expect(error.text()).toContain('sent nothing for 1.0 s')
    expect(Date.now() - started).toBeLessThan(8_000)
    expect(wrapper.find('[data-testid="assistant-waiting"]').exists()).toBe(false)
  })
})
