import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { MessageBlock } from '@shared/types/chat'
import type { SessionSearchHit } from '@shared/types/session'
import { buildSnippet } from '../../../src/main/presenter/sessionPresenter/searchSnippet'
import { openSessionFixture, type SessionFixture } from './helpers'

type BlockInput = MessageBlock extends infer B
  ? B extends MessageBlock
    ? Omit<B, 'createdAt' | 'updatedAt'>
    : never
  : never
const stamped = (block: BlockInput) => ({ ...block, createdAt: 1, updatedAt: 1 }) as MessageBlock

const marked = (hit: Pick<SessionSearchHit, 'snippet' | 'highlights'>) =>
  hit.highlights.map(([s, e]) => hit.snippet.slice(s, e))

describe('history search shows people message text', () => {
  let fx: SessionFixture
  let clock = 0
  beforeEach(() => {
    clock = Date.parse('2026-03-01T00:00:00Z')
    fx = openSessionFixture({ now: () => (clock += 1000) })
  })
  afterEach(() => fx.close())

  function answer(sessionId: string, blocks: BlockInput[], status: 'sent' | 'error' = 'sent') {
    const a = fx.sessions.messages.createAssistantMessage(sessionId)
    fx.sessions.messages.finalizeAssistantMessage(a.id, { status, blocks: blocks.map(stamped) })
    return a
  }

  it('snippets carry the text around the match and nothing internal, with the match marked', () => {
    const session = fx.sessions.create({ title: 'Gardening' })
    fx.sessions.messages.appendUserMessage(session.id, { text: 'How often should I water tomatoes?' })
    const reply = answer(session.id, [
      { id: 'r', kind: 'reasoning_content', status: 'success', text: 'thinking about Tomatoes privately' },
      {
        id: 't',
        kind: 'tool_call',
        status: 'success',
        text: '',
        toolCall: { id: 'call_4_0', name: 'write', params: '{"path":"tomatoes.txt"}', response: 'ok' }
      },
      { id: 'c', kind: 'content', status: 'success', text: 'Water **tomatoes** deeply twice a week.' }
    ])
    const hits = fx.sessions.searchHistory('tomatoes')
    expect(hits.map((h) => [h.role, h.snippet])).toEqual([
      ['assistant', 'Water **tomatoes** deeply twice a week.'],
      ['user', 'How often should I water tomatoes?']
    ])
    expect(hits[0].messageId).toBe(reply.id)
    for (const hit of hits) {
      expect(marked(hit).map((m) => m.toLowerCase())).toEqual(['tomatoes'])
      expect(hit.snippet).not.toMatch(/call_4_0|tool_call|assistant|write|[0-9a-f]{8}-[0-9a-f]{4}/)
    }
  })

  it('gives one hit per message however often the word appears, and across its revisions', () => {
    const session = fx.sessions.create({ title: 'Echo' })
    fx.sessions.messages.appendUserMessage(session.id, { text: 'say banana' })
    const reply = answer(session.id, [
      { id: 'c', kind: 'content', status: 'success', text: 'banana banana banana, and more banana' }
    ])
    // A second revision of the same message (a resumed run writes the fact again).
    fx.sessions.messages.finalizeAssistantMessage(reply.id, {
      status: 'sent',
      blocks: [stamped({ id: 'c', kind: 'content', status: 'success', text: 'banana again, banana' })]
    })
    const hits = fx.sessions.searchHistory('banana')
    expect(hits.filter((h) => h.messageId === reply.id)).toHaveLength(1)
    expect(new Set(hits.map((h) => h.messageId)).size).toBe(hits.length)
    expect(marked(hits.find((h) => h.messageId === reply.id)!).length).toBeGreaterThanOrEqual(2)
  })

  it('does not show a message whose only match is in tool arguments or results', () => {
    const session = fx.sessions.create({ title: 'Files' })
    answer(session.id, [
      {
        id: 't',
        kind: 'tool_call',
        status: 'success',
        text: '',
        toolCall: { id: 'c1', name: 'read', params: '{"path":"zanzibar.md"}', response: 'zanzibar notes' }
      },
      { id: 'c', kind: 'content', status: 'success', text: 'I read the file for you.' }
    ])
    expect(fx.sessions.searchHistory('zanzibar')).toEqual([])
  })

  it('returns markup in a message as plain text for the UI to escape', () => {
    const session = fx.sessions.create({ title: 'HTML' })
    fx.sessions.messages.appendUserMessage(session.id, {
      text: 'why does <img src=x onerror=alert(1)> fire?'
    })
    const [hit] = fx.sessions.searchHistory('onerror')
    expect(hit.snippet).toBe('why does <img src=x onerror=alert(1)> fire?')
    expect(marked(hit)).toEqual(['onerror'])
  })

  it('leaves out messages of deleted chats and keeps the other filters', () => {
    const kept = fx.sessions.create({ title: 'Kept' })
    fx.sessions.messages.appendUserMessage(kept.id, { text: 'walrus facts' })
    expect(fx.sessions.searchHistory('walrus', { kinds: ['anchor'] })).toEqual([])
    expect(fx.sessions.searchHistory('walrus', { limit: 1 })).toHaveLength(1)
    fx.sessions.purge(kept.id)
    expect(fx.sessions.searchHistory('walrus')).toEqual([])
  })
})

describe('snippets', () => {
  it('cuts a long text around the first match on word boundaries, with ellipses', () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`)
    words[120] = 'Needle'
    const snippet = buildSnippet(words.join(' '), ['needle'])!
    expect(snippet.text.startsWith('…')).toBe(true)
    expect(snippet.text.endsWith('…')).toBe(true)
    expect(snippet.text.length).toBeLessThanOrEqual(182)
    expect(snippet.text).toMatch(/^…w\d+ /) // starts at a word, not inside one
    expect(snippet.highlights.map(([s, e]) => snippet.text.slice(s, e))).toEqual(['Needle'])
  })

  it('needs every word, matches case-insensitively and treats regex characters literally', () => {
    expect(buildSnippet('Cost is $5 (approx.)', ['$5', '(approx.)'])?.highlights).toEqual([
      [8, 10],
      [11, 20]
    ])
    expect(buildSnippet('only one word here', ['one', 'missing'])).toBeNull()
    expect(buildSnippet('ÉCOLE et école', ['école'])?.highlights).toEqual([
      [0, 5],
      [9, 14]
    ])
  })
})
