import { afterEach, describe, expect, it } from 'vitest'
import { computed, defineComponent, h } from 'vue'
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { chatRespondToolInteraction } from '@shared/contracts/routes/chat.routes'
import { useBridge } from '@renderer/api/bridge'
import { createAppI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/stores/chat'
import AssistantMessage from '@renderer/components/chat/AssistantMessage.vue'
import {
  startFakeLlm,
  type FakeLlm,
  type FakeResponse,
  type RecordedRequest
} from '../../fixtures/llm/fakeLlm'
import { openAiBody } from '../../fixtures/llm/openAiRequest'
import { useRealBridge } from '../helpers/realBridge'
import { eventually } from '../settings/helpers'

let bridge: ReturnType<typeof useRealBridge> | undefined
let llm: FakeLlm | undefined
let wrapper: ReturnType<typeof mount> | undefined
afterEach(async () => {
  wrapper?.unmount()
  wrapper = undefined
  useChatStore().dispose()
  await bridge?.dispose()
  bridge = undefined
  await llm?.close()
  llm = undefined
})

/** The fake model runs the command the user names ("run: <line>"), then says it is done. */
function runWhatIsAsked(request: RecordedRequest): FakeResponse {
  const messages = openAiBody(request.body).messages
  const last = messages[messages.length - 1]
  if (last.role === 'tool') return { steps: [{ type: 'text', text: 'done' }] }
  const line = /run: (.+)$/.exec(String(last.content))?.[1] ?? 'true'
  return {
    steps: [
      {
        type: 'tool_calls',
        calls: [
          { id: `c${messages.length}`, name: 'exec', argumentChunks: [JSON.stringify({ command: line })] }
        ]
      }
    ]
  }
}

/** The newest answer of the open chat, as the chat page renders it. */
const LatestAnswer = defineComponent(() => {
  const chat = useChatStore()
  const latest = computed(() => [...chat.messages].reverse().find((m) => m.role === 'assistant'))
  return () =>
    latest.value
      ? h(AssistantMessage, { key: latest.value.id, message: latest.value, busy: false, subagents: [] })
      : null
})

function letBackEndFetchLikeNode(): void {
  const happyDOM = (
    globalThis as { happyDOM?: { settings: { fetch: { disableSameOriginPolicy: boolean } } } }
  ).happyDOM
  if (happyDOM) happyDOM.settings.fetch.disableSameOriginPolicy = true
}

describe('a learned rule offered on the approval card', () => {
  it('after the third "allow once" of `mkdir -p …` the card offers `mkdir -p *` with its replay (the denied prompt listed); Always allow saves it', async () => {
    letBackEndFetchLikeNode()
    bridge = useRealBridge()
    llm = await startFakeLlm({ kind: 'openai', script: runWhatIsAsked })
    await bridge.presenters.llmProviders.addProvider({
      id: 'fake',
      kind: 'openai',
      name: 'Fake',
      baseUrl: llm.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [{ id: 'fake-model', name: 'Fake model' }],
      maxRetries: 0
    })
    setActivePinia(createPinia())
    const chat = useChatStore()
    const presenters = bridge.presenters
    const sessionId = await chat.send('run: mkdir -p a', {
      newSession: { providerId: 'fake', modelId: 'fake-model', permissionMode: 'default' }
    })
    // Earlier prompts of this chat, answered through the route: allowed twice, denied once.
    const answerNext = async (decision: 'allow_once' | 'deny') => {
      await presenters.agentRuntime.idle(sessionId)
      const [pending] = presenters.sessions.interactions.list({ sessionId, status: 'pending' })
      await useBridge().call(chatRespondToolInteraction, {
        sessionId,
        messageId: pending.messageId,
        interactionId: pending.id,
        response: { kind: 'permission', decision }
      })
      await presenters.agentRuntime.idle(sessionId)
    }
    await chat.open(sessionId)
    await answerNext('allow_once')
    for (const [line, decision] of [
      ['mkdir -p b', 'allow_once'],
      ['mkdir -p out', 'deny']
    ] as const) {
      await chat.send(`run: ${line}`)
      await answerNext(decision)
    }
    // The third approval, on the card.
    wrapper = mount(LatestAnswer, { global: { plugins: [createAppI18n('en-US')] }, attachTo: document.body })
    await chat.send('run: mkdir -p dist')
    await eventually(() => expect(wrapper!.find('[data-testid="permission-allow-once"]').exists()).toBe(true))
    await wrapper.get('[data-testid="permission-allow-once"]').trigger('click')

    await eventually(() => expect(wrapper!.find('[data-testid="learned-rule-offer"]').exists()).toBe(true))
    expect(wrapper.get('[data-testid="learned-rule-pattern"]').text()).toBe('mkdir -p *')
    expect(wrapper.get('[data-testid="learned-rule-offer"]').text()).toContain(
      'You allowed this kind of request 3 times.'
    )
    expect(wrapper.get('[data-testid="learned-rule-replay"]').text()).toBe(
      'It would have allowed 4 of the last 4 requests in all chats, including 1 you denied:'
    )
    expect(wrapper.get('[data-testid="learned-rule-denied"]').text()).toContain('mkdir -p out')
    expect(presenters.permissions.listRules()).toEqual([]) // shown, not saved

    await wrapper.get('[data-testid="learned-rule-save"]').trigger('click')
    await eventually(() => expect(wrapper!.find('[data-testid="learned-rule-saved"]').exists()).toBe(true))
    expect(presenters.permissions.listRules()).toMatchObject([
      { kind: 'exec', pattern: 'mkdir -p *', effect: 'allow' }
    ])
  }, 60_000) // four real turns with their commands
})
