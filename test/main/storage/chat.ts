import type { EventDef, EventPayload } from '@shared/contracts/define'
import { providersAdd, providersSetDefault } from '@shared/contracts/routes/providers.routes'
import { chatGetMessages, chatSendMessage } from '@shared/contracts/routes/chat.routes'
import { chatStreamCompleted, chatStreamFailed } from '@shared/contracts/events/chat.events'
import type { BridgeClient } from '../../../src/renderer/src/api/bridge'
import type { FakeLlm } from '../../fixtures/llm/fakeLlm'

/** The fake OpenAI-format provider as the default model of a child host. */
export async function addFakeProvider(bridge: BridgeClient, llm: FakeLlm): Promise<void> {
  await bridge.call(providersAdd, {
    provider: {
      id: 'fake-openai',
      kind: 'openai',
      name: 'Fake OpenAI',
      baseUrl: llm.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [
        {
          id: 'fake-model',
          name: 'Fake model',
          contextLength: 128_000,
          maxOutputTokens: 8192,
          vision: false,
          toolCalling: true,
          reasoning: false,
          enabled: true
        }
      ],
      maxRetries: 0
    }
  })
  await bridge.call(providersSetDefault, {
    defaultModel: { providerId: 'fake-openai', modelId: 'fake-model' }
  })
}

/** The next event of this kind that matches. */
export function nextEvent<E extends EventDef>(
  bridge: BridgeClient,
  event: E,
  match: (payload: EventPayload<E>) => boolean = () => true
): Promise<EventPayload<E>> {
  return new Promise((resolve) => {
    const off = bridge.on(event, (payload) => {
      if (!match(payload)) return
      off()
      resolve(payload)
    })
  })
}

export type TurnEnd =
  | { kind: 'completed'; payload: EventPayload<typeof chatStreamCompleted> }
  | { kind: 'failed'; payload: EventPayload<typeof chatStreamFailed> }

/** Sends and waits for the reply's terminal event (completed or failed). */
export async function sendAndWait(
  bridge: BridgeClient,
  text: string,
  sessionId?: string
): Promise<{ sessionId: string; end: TurnEnd }> {
  const ended = new Promise<TurnEnd>((resolve) => {
    const offs = [
      bridge.on(chatStreamCompleted, (payload) => done({ kind: 'completed', payload })),
      bridge.on(chatStreamFailed, (payload) => done({ kind: 'failed', payload }))
    ]
    const done = (end: TurnEnd) => {
      for (const off of offs) off()
      resolve(end)
    }
  })
  const accepted = await bridge.call(chatSendMessage, {
    text,
    ...(sessionId ? { sessionId } : { newSession: {} })
  })
  return { sessionId: accepted.sessionId, end: await ended }
}

/** The chat's messages as role and text (content blocks joined), oldest first. */
export async function transcript(
  bridge: BridgeClient,
  sessionId: string
): Promise<Array<{ role: string; status: string; text: string }>> {
  const { messages } = await bridge.call(chatGetMessages, { sessionId })
  return messages.map((m) => ({
    role: m.role,
    status: m.status,
    text:
      m.role === 'user'
        ? (m.content?.text ?? '')
        : m.blocks
            .filter((b) => b.kind === 'content' || b.kind === 'error')
            .map((b) => b.text)
            .join('|')
  }))
}
