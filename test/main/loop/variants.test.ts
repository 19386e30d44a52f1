import { describe, expect, it } from 'vitest'
import type { FakeResponse, RecordedRequest } from '../../fixtures/llm/fakeLlm'
import { openAiBody } from '../../fixtures/llm/openAiRequest'
import { eventsOf, call, textReply, useLoopHarness, type LoopHarness } from './helpers'
import { chatBranchChanged, chatMessagesSuperseded } from '@shared/contracts/events/chat.events'
import {
  chatDeleteMessage,
  chatEditAndResend,
  chatGetMessages,
  chatRestoreMessages,
  chatRetry,
  chatSelectVariant
} from '@shared/contracts/routes/chat.routes'
import { chatFindText } from '@shared/contracts/routes/chatFind.routes'
import { dataExportChat, dataImportChat } from '@shared/contracts/routes/data.routes'
import { sessionsFork, sessionsSearchHistory } from '@shared/contracts/routes/sessions.routes'
import type { OpenAiRequest } from '../../fixtures/llm/openAiRequest'

const harness = useLoopHarness()

/** What the window shows: each message's text and its "index/count" when it has variants. */
/** Retry on the first turn's answer, waiting until the new answer has finished. */
async function retryAnswer(h: LoopHarness, first: { sessionId: string; assistantMessageId: string }) {
  const retried = await call(h, chatRetry, {
    sessionId: first.sessionId,
    messageId: first.assistantMessageId
  })
  await h.idle(first.sessionId)
  return retried
}

async function shown(h: LoopHarness, sessionId: string): Promise<Array<string | undefined>> {
  const { messages } = await call(h, chatGetMessages, { sessionId })
  return messages.map((m) => {
    const text = m.role === 'user' ? m.content?.text : m.blocks.find((b) => b.kind === 'content')?.text
    return m.variants ? `${text} [${m.variants.index}/${m.variants.count}]` : text
  })
}

/** The role and text of every message of a provider request, system prompt left out. */
function conversation(body: OpenAiRequest): string[] {
  return body.messages
    .filter((m) => m.role !== 'system')
    .map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`)
}

async function exported(h: LoopHarness, sessionId: string, format: 'markdown' | 'html' | 'json') {
  return (await call(h, dataExportChat, { sessionId, format })).content as string
}

describe('message variants', () => {
  it('retry keeps the old answer as variant 1/2, shows the new one as 2/2, and switching back is kept', async () => {
    const h = await harness([textReply('Answer one.'), textReply('Answer two.'), textReply('Fine.')])
    const first = await h.send('question')
    await h.idle(first.sessionId)
    const retried = await retryAnswer(h, first)
    expect(conversation(h.bodies()[1])).toEqual(['user: question'])
    expect(await shown(h, first.sessionId)).toEqual(['question', 'Answer two. [2/2]'])
    const { messages } = await call(h, chatGetMessages, { sessionId: first.sessionId })
    expect(messages[1].variants?.ids).toEqual([first.assistantMessageId, retried.assistantMessageId])

    await call(h, chatSelectVariant, { sessionId: first.sessionId, messageId: first.assistantMessageId })
    expect(eventsOf(h, chatBranchChanged)).toEqual([{ sessionId: first.sessionId, reason: 'variant' }])
    expect(await shown(h, first.sessionId)).toEqual(['question', 'Answer one. [1/2]'])
    await h.restart()
    expect(await shown(h, first.sessionId)).toEqual(['question', 'Answer one. [1/2]'])

    // The next turn continues the chosen answer only.
    await h.send('thanks', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    expect(conversation(h.bodies()[2])).toEqual(['user: question', 'assistant: Answer one.', 'user: thanks'])
    expect(await shown(h, first.sessionId)).toEqual(['question', 'Answer one. [1/2]', 'thanks', 'Fine.'])
    // The other answer has no continuation of its own: switching shows it alone.
    await call(h, chatSelectVariant, {
      sessionId: first.sessionId,
      messageId: retried.assistantMessageId!
    })
    expect(await shown(h, first.sessionId)).toEqual(['question', 'Answer two. [2/2]'])
  })

  it('a retry after switching to an older variant shows the new answer (3/3)', async () => {
    const h = await harness([textReply('One.'), textReply('Two.'), textReply('Three.')])
    const first = await h.send('q')
    await h.idle(first.sessionId)
    await retryAnswer(h, first)
    await call(h, chatSelectVariant, { sessionId: first.sessionId, messageId: first.assistantMessageId })
    await retryAnswer(h, first)
    expect(await shown(h, first.sessionId)).toEqual(['q', 'Three. [3/3]'])
  })

  it('edit-and-resend keeps the old prompt and its answers as variant 1/2; the next request carries only the edit', async () => {
    const h = await harness([
      textReply('About cats.'),
      textReply('More cats.'),
      textReply('About dogs.'),
      textReply('More dogs.')
    ])
    const first = await h.send('tell me about cats')
    await h.idle(first.sessionId)
    await h.send('more', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    const { messages: before } = await call(h, chatGetMessages, { sessionId: first.sessionId })
    await call(h, chatEditAndResend, {
      sessionId: first.sessionId,
      messageId: before[0].id,
      text: 'tell me about dogs'
    })
    await h.idle(first.sessionId)
    expect(eventsOf(h, chatMessagesSuperseded)).toEqual([
      { sessionId: first.sessionId, messageIds: before.map((m) => m.id), reason: 'edit' }
    ])
    expect(await shown(h, first.sessionId)).toEqual(['tell me about dogs [2/2]', 'About dogs.'])
    await h.send('and?', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    expect(conversation(h.bodies()[3])).toEqual([
      'user: tell me about dogs',
      'assistant: About dogs.',
      'user: and?'
    ])
    // The old prompt comes back with everything that followed it.
    await call(h, chatSelectVariant, { sessionId: first.sessionId, messageId: before[0].id })
    expect(await shown(h, first.sessionId)).toEqual([
      'tell me about cats [1/2]',
      'About cats.',
      'more',
      'More cats.'
    ])
  })

  it('exports, history search, find in chat and a fork follow the chosen branch only', async () => {
    const h = await harness([textReply('Answer zebra.'), textReply('Answer walrus.')])
    const first = await h.send('animal please')
    await h.idle(first.sessionId)
    const retried = await retryAnswer(h, first)
    for (const format of ['markdown', 'html', 'json'] as const) {
      const text = await exported(h, first.sessionId, format)
      expect(text, format).toContain('Answer walrus.')
      expect(text, format).not.toContain('zebra')
    }
    const search = async (query: string) =>
      (await call(h, sessionsSearchHistory, { query })).hits.map((hit) => hit.messageId)
    expect(await search('zebra')).toEqual([])
    expect(await search('walrus')).toEqual([retried.assistantMessageId])
    const find = async (query: string) =>
      (await call(h, chatFindText, { sessionId: first.sessionId, query })).hits.map((hit) => hit.messageId)
    expect(await find('zebra')).toEqual([])
    expect(await find('walrus')).toEqual([retried.assistantMessageId])

    await call(h, chatSelectVariant, { sessionId: first.sessionId, messageId: first.assistantMessageId })
    const md = await exported(h, first.sessionId, 'markdown')
    expect(md).toContain('Answer zebra.')
    expect(md).not.toContain('walrus')
    expect(await search('zebra')).toEqual([first.assistantMessageId])
    expect(await search('walrus')).toEqual([])
    expect(await find('zebra')).toEqual([first.assistantMessageId])
    expect(await find('walrus')).toEqual([])

    const { session } = await call(h, sessionsFork, {
      sessionId: first.sessionId,
      messageId: retried.assistantMessageId!
    })
    expect(await shown(h, session.id)).toEqual(['animal please', 'Answer walrus.'])
  })

  it('an import of an export shows exactly what the user saw', async () => {
    const h = await harness([textReply('Old answer.'), textReply('New answer.'), textReply('Next.')])
    const first = await h.send('hello')
    await h.idle(first.sessionId)
    await retryAnswer(h, first)
    const json = await exported(h, first.sessionId, 'json')
    const { session } = await call(h, dataImportChat, { content: json })
    expect(await shown(h, session.id)).toEqual(['hello', 'New answer.'])
  })

  it('an older export that lists a stopped answer and its retry imports as variants: never two answers in a row', async () => {
    const h = await harness([textReply('Next.')])
    const message = (role: 'user' | 'assistant', text: string, status = 'sent') => ({
      role,
      status,
      content: role === 'user' ? { text, files: [], links: [] } : null,
      blocks:
        role === 'assistant'
          ? [{ id: `b-${text}`, kind: 'content', status: 'success', text, createdAt: 1, updatedAt: 1 }]
          : [],
      metadata: {},
      attachments: [],
      createdAt: 1
    })
    const oldExport = {
      format: 'deepchat-desk.chat',
      version: 1,
      exportedAt: 1,
      chat: { title: 'old', providerId: 'fake-openai', modelId: 'fake-model', createdAt: 1 },
      messages: [
        message('user', 'first prompt'),
        message('assistant', 'Stopped half', 'cancelled'),
        message('assistant', 'Full answer.'),
        message('user', 'edited away'),
        message('user', 'second prompt'),
        message('assistant', 'Second answer.')
      ]
    }
    const { session } = await call(h, dataImportChat, { content: JSON.stringify(oldExport) })
    expect(await shown(h, session.id)).toEqual([
      'first prompt',
      'Full answer. [2/2]',
      'second prompt [2/2]',
      'Second answer.'
    ])
    await h.send('go on', { sessionId: session.id })
    await h.idle(session.id)
    expect(conversation(h.bodies()[0])).toEqual([
      'user: first prompt',
      'assistant: Full answer.',
      'user: second prompt',
      'assistant: Second answer.',
      'user: go on'
    ])
  })
})

describe('deleting messages', () => {
  it('deletes a prompt with its answer from the list, the context and exports; undo brings them back', async () => {
    const h = await harness([
      textReply('Paris.'),
      textReply('Blue whale.'),
      textReply('Yes.'),
      textReply('Again.')
    ])
    const first = await h.send('capital of France?')
    await h.idle(first.sessionId)
    const second = await h.send('largest animal?', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    const { messages } = await call(h, chatGetMessages, { sessionId: first.sessionId })
    const deleted = await call(h, chatDeleteMessage, {
      sessionId: first.sessionId,
      messageId: messages[2].id
    })
    expect(deleted.messageIds).toEqual([messages[2].id, second.assistantMessageId])
    expect(await shown(h, first.sessionId)).toEqual(['capital of France?', 'Paris.'])
    expect(await exported(h, first.sessionId, 'markdown')).not.toContain('whale')

    await h.send('sure?', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    expect(conversation(h.bodies()[2])).toEqual([
      'user: capital of France?',
      'assistant: Paris.',
      'user: sure?'
    ])

    await call(h, chatRestoreMessages, { sessionId: first.sessionId, messageIds: deleted.messageIds })
    expect(eventsOf(h, chatBranchChanged).map((e) => e.reason)).toEqual(['delete', 'restore'])
    expect(await shown(h, first.sessionId)).toEqual([
      'capital of France?',
      'Paris.',
      'largest animal?',
      'Blue whale.',
      'sure?',
      'Yes.'
    ])
    expect(await exported(h, first.sessionId, 'markdown')).toContain('Blue whale.')
    // The entries are still on the tape: delete and undo were appended, nothing removed.
    const names = h.presenters.tape.entries(first.sessionId, { limit: 1000 }).map((e) => e.name)
    expect(names).toContain('chat/delete')
    expect(names).toContain('chat/restore')
  })

  it('deleting one of two answer variants shows the other one', async () => {
    const h = await harness([textReply('First try.'), textReply('Second try.')])
    const first = await h.send('q')
    await h.idle(first.sessionId)
    const retried = await retryAnswer(h, first)
    const deleted = await call(h, chatDeleteMessage, {
      sessionId: first.sessionId,
      messageId: retried.assistantMessageId!
    })
    expect(deleted.messageIds).toEqual([retried.assistantMessageId])
    expect(await shown(h, first.sessionId)).toEqual(['q', 'First try.'])
  })

  it('refuses to delete or show a message of another chat', async () => {
    const h = await harness([textReply('A.'), textReply('B.')])
    const a = await h.send('one')
    await h.idle(a.sessionId)
    const b = await h.send('two')
    await h.idle(b.sessionId)
    await expect(
      call(h, chatDeleteMessage, { sessionId: a.sessionId, messageId: b.assistantMessageId })
    ).rejects.toMatchObject({
      code: 'message_not_found'
    })
    await expect(
      call(h, chatSelectVariant, { sessionId: a.sessionId, messageId: 'nope' })
    ).rejects.toMatchObject({ code: 'message_not_found' })
    expect(await shown(h, b.sessionId)).toEqual(['two', 'B.'])
  })
})

describe('summaries and branches', () => {
  it('a compaction summary of turns the user deleted is not sent with the next request', async () => {
    const long = (tag: string) => `${tag} ` + 'lorem ipsum dolor sit amet '.repeat(750) // ~5k tokens
    const tags: Record<string, string> = {
      one: 'ALPHA',
      two: 'BETA',
      three: 'GAMMA',
      four: 'DELTA',
      five: 'EPSILON'
    }
    const script = (request: RecordedRequest): FakeResponse => {
      const { messages } = openAiBody(request.body)
      const body = JSON.stringify(messages)
      if (body.includes('You compress a conversation'))
        return textReply(body.includes('ALPHA lorem') ? 'SUMMARY-OF-TURN-ONE' : 'SUMMARY-OF-LATER-TURNS')
      const last = [...messages].reverse().find((m) => m.role === 'user')?.content
      const turn = String(typeof last === 'string' ? last : JSON.stringify(last)).replace('turn ', '')
      return textReply(long(tags[turn] ?? 'X'))
    }
    const h = await harness(script, { contextLength: 20_000, maxOutputTokens: 2_000 })
    const first = await h.send('turn one')
    await h.idle(first.sessionId)
    for (const text of ['turn two', 'turn three', 'turn four']) {
      await h.send(text, { sessionId: first.sessionId })
      await h.idle(first.sessionId)
    }
    expect(JSON.stringify(h.bodies().at(-1)!.messages)).toContain('SUMMARY-OF-TURN-ONE')
    // Turns one to three go: what is left fits without any summary.
    for (let i = 0; i < 3; i++) {
      const { messages } = await call(h, chatGetMessages, { sessionId: first.sessionId })
      await call(h, chatDeleteMessage, { sessionId: first.sessionId, messageId: messages[0].id })
    }
    const requests = h.bodies().length
    await h.send('turn five', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    expect(h.bodies()).toHaveLength(requests + 1) // no new summary was needed
    const last = JSON.stringify(h.bodies().at(-1)!.messages)
    expect(last).toContain('turn five')
    expect(last).toContain('DELTA lorem')
    expect(last).not.toContain('SUMMARY-OF-TURN-ONE')
    expect(last).not.toContain('ALPHA')
    expect(last).not.toContain('turn one')
  })
})
