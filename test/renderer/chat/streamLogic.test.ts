import { describe, expect, it } from 'vitest'
import type { BlockOf } from '@shared/types/blocks'
import type { ChatMessageView, MessageBlock } from '@shared/types/chat'
import { applyOps, judgeDelta } from '@renderer/stores/lib/applyDelta'
import { fencedCode, MarkdownSplitter, type FinishedChunk } from '@renderer/components/chat/lib/markdown'
import { forgetAppends, logAppend, readAppended } from '@renderer/stores/lib/appendLog'
import { renderMarkdown } from '@renderer/components/chat/lib/markdownEngine'
import { summarizeArgs } from '@renderer/components/chat/lib/toolSummary'
import { groupSessions } from '@renderer/stores/sessions'
import type { SessionRecord } from '@shared/types/session'

const at = { status: 'loading' as const, text: '', createdAt: 1, updatedAt: 1 }

function message(blocks: MessageBlock[]): ChatMessageView {
  return {
    id: 'm',
    sessionId: 's',
    orderSeq: 2,
    role: 'assistant',
    status: 'streaming',
    content: null,
    blocks,
    metadata: {},
    tapeEntryId: null,
    createdAt: 1,
    updatedAt: 1,
    stream: null
  }
}

describe('delta application', () => {
  it('appends text and tool params to the right block and upserts in place', () => {
    const text: MessageBlock = { ...at, id: 't', kind: 'content' }
    const tool: BlockOf<'tool_call'> = {
      ...at,
      id: 'c',
      kind: 'tool_call',
      toolCall: { id: 'x', name: 'read', params: '{"pa' }
    }
    const m = message([text, tool])
    applyOps(m, [
      { op: 'append', blockId: 't', field: 'text', text: 'Hello' },
      { op: 'append', blockId: 'c', field: 'params', text: 'th":"a"}' },
      { op: 'upsert', block: { ...text, text: 'Hello!', status: 'success' } },
      { op: 'upsert', block: { ...at, id: 'e', kind: 'error', text: 'boom', data: { code: 'internal' } } }
    ])
    expect(m.blocks[0]).toBe(text) // same object: only its readers re-render
    expect(text).toMatchObject({ text: 'Hello!', status: 'success' })
    expect(tool.toolCall.params).toBe('{"path":"a"}')
    expect(m.blocks.map((b) => b.id)).toEqual(['t', 'c', 'e'])
  })

  it('applies the next seq, drops old ones and reports gaps', () => {
    expect(judgeDelta(null, 'r1', 1)).toBe('apply')
    expect(judgeDelta(null, 'r1', 3)).toBe('gap')
    expect(judgeDelta({ runId: 'r1', seq: 4 }, 'r1', 5)).toBe('apply')
    expect(judgeDelta({ runId: 'r1', seq: 4 }, 'r1', 4)).toBe('stale')
    expect(judgeDelta({ runId: 'r1', seq: 4 }, 'r1', 7)).toBe('gap')
    expect(judgeDelta({ runId: 'r1', seq: 9 }, 'r2', 1)).toBe('apply') // a resume starts a new run
  })
})

describe('streaming markdown', () => {
  it('ends chunks at blank lines outside code fences, and only there', () => {
    const splitter = new MarkdownSplitter()
    const text = 'Para one.\n\n```js\nconst a = 1\n\nconst b = 2\n```\nAfter code\n\n\n\nTail'
    // Fed in small pieces, as a stream arrives.
    const chunks: string[] = []
    for (let i = 0; i < text.length; i += 3) {
      splitter.append(text.slice(i, i + 3))
      chunks.push(...splitter.takeFinished().map((chunk) => chunk.text))
    }
    expect(chunks).toEqual(['Para one.\n\n', '```js\nconst a = 1\n\nconst b = 2\n```\n', 'After code\n\n'])
    expect(splitter.boundaries.map((end, i) => text.slice(splitter.boundaries[i - 1] ?? 0, end))).toEqual(
      chunks
    )
    // Extra blank lines stay with the tail rather than making empty chunks.
    expect(splitter.tail).toBe('\n\nTail')
    expect(splitter.stableEnd + splitter.tail.length).toBe(text.length)
  })

  it('hands out exactly the text appended to a block since an offset, and nothing once it was replaced', () => {
    const block = { text: 'start ' }
    const append = (piece: string) => {
      logAppend(block, block.text.length, piece)
      block.text += piece
    }
    for (const piece of ['one ', 'two ', 'three ', 'four']) append(piece)
    expect(readAppended(block, 6, block.text.length)).toBe('one two three four')
    expect(readAppended(block, 8, block.text.length)).toBe('e two three four') // mid-piece
    expect(readAppended(block, block.text.length, block.text.length)).toBe('')
    expect(readAppended(block, 0, block.text.length)).toBeNull() // before the log began
    expect(readAppended(block, 6, block.text.length - 1)).toBeNull() // not the current end
    for (let i = 0; i < 5000; i++) append(`${i},`) // compaction keeps every character
    expect(readAppended(block, 6, block.text.length)).toBe(block.text.slice(6))
    forgetAppends(block)
    expect(readAppended(block, 6, block.text.length)).toBeNull()
  })

  it('splits a long code block into joined pieces, each closed and reopened with its fence line', () => {
    const code = Array.from({ length: 130 }, (_, i) => `line ${i}`).join('\n')
    const text = `Intro:\n~~~~python title\n${code}\n~~~~\nAfter.\n\nTail`
    const splitter = new MarkdownSplitter()
    const chunks: FinishedChunk[] = []
    for (let i = 0; i < text.length; i += 7) {
      splitter.append(text.slice(i, i + 7))
      chunks.push(...splitter.takeFinished())
    }
    // 130 lines: pieces of 40, 40, 40 and the last 10 with the closing fence.
    expect(chunks.map((c) => c.joined)).toEqual([false, true, true, true, false])
    expect(chunks[0].text).toBe(
      `Intro:\n~~~~python title\n${code.split('\n').slice(0, 40).join('\n')}\n~~~~\n`
    )
    for (const piece of chunks.slice(1, 4))
      expect(piece.text.startsWith('~~~~python title\nline ')).toBe(true)
    expect(
      chunks
        .slice(0, 4)
        .map((c) => fencedCode(c.text))
        .join('')
    ).toBe(`${code}\n`)
    // Boundaries stay offsets in the text itself: the reopened fences are not counted.
    const pieces = splitter.boundaries.map((end, i) => text.slice(splitter.boundaries[i - 1] ?? 0, end))
    expect(pieces.join('') + splitter.tail).toBe(text)
    expect(fencedCode(text.slice(0, splitter.boundaries[3]))).toBe(`${code}\n`)
    expect(splitter.tail).toBe('Tail')
  })

  it('splits a code block inside a list item without leaving the item or adding empty blocks', () => {
    const code = Array.from({ length: 50 }, (_, i) => `  x${i}()`).join('\n')
    const splitter = new MarkdownSplitter()
    splitter.append(`- Step one:\n  \`\`\`js\n${code}\n  \`\`\`\n\nEnd.\n\n`)
    const chunks = splitter.takeFinished()
    expect(chunks.map((c) => c.joined)).toEqual([false, true, false])
    const first = renderMarkdown(chunks[0].text)
    expect(first.match(/<pre>/g)).toHaveLength(1)
    expect(first).toContain('<li>')
    expect(first).toContain('x39()')
    const second = renderMarkdown(chunks[1].text)
    expect(second.match(/<pre>/g)).toHaveLength(1)
    expect(second).toContain('x40()')
    expect(second).not.toContain('  x40()') // the item's indentation is not part of the code
    expect(fencedCode(chunks[0].text).split('\n')[0]).toBe('x0()')
  })

  it('splits a long list without blank lines before an item, and numbered lists keep counting', () => {
    const items = Array.from({ length: 150 }, (_, i) => `${i + 1}. item ${i + 1}`)
    const splitter = new MarkdownSplitter()
    splitter.append(items.join('\n') + '\n')
    const chunks = splitter.takeFinished()
    expect(chunks.map((c) => c.joined)).toEqual([false, true])
    expect(chunks[0].text.split('\n')[0]).toBe('1. item 1')
    expect(chunks[1].text.split('\n')[0]).toBe('61. item 61')
    expect(splitter.tail.split('\n')[0]).toBe('121. item 121')
    expect(splitter.continuesTail).toBe(true)
    expect(renderMarkdown(chunks[1].text)).toContain('<ol start="61">')
  })

  it('logs an upsert that extends the text as an append, and forgets the log when it replaces it', () => {
    const message = {
      blocks: [{ id: 'b', kind: 'content', status: 'loading', text: '', createdAt: 0, updatedAt: 0 }]
    } as unknown as ChatMessageView
    const block = message.blocks[0] as { text: string }
    applyOps(message, [{ op: 'append', blockId: 'b', field: 'text', text: 'Hello ' }])
    // The stream's last upsert carries an append the renderer had not seen.
    applyOps(message, [
      { op: 'upsert', block: { ...message.blocks[0], text: 'Hello world', status: 'success' } }
    ])
    expect(readAppended(block, 6, block.text.length)).toBe('world')
    applyOps(message, [{ op: 'upsert', block: { ...message.blocks[0], text: 'Other text entirely' } }])
    expect(readAppended(block, 6, block.text.length)).toBeNull()
  })

  it('escapes raw HTML, renders tables and marks known languages for highlighting', () => {
    const html = renderMarkdown(
      '<img src=x onerror=alert(1)>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```js\nconst x = 1\n```',
      { copyLabel: 'Copy' }
    )
    expect(html).not.toContain('<img')
    expect(html).toContain('&lt;img')
    expect(html).toContain('<td>1</td>')
    // The grammar loads on first use: until then the code is escaped text waiting for it.
    expect(html).toContain('data-rich="code" data-grammar="javascript"')
    expect(html).toContain('data-copy-code')
  })
})

describe('tool and session helpers', () => {
  it('summarizes arguments by their most telling field, even mid-stream', () => {
    expect(summarizeArgs('{"path":"/a/b.txt","content":"x"}')).toBe('/a/b.txt')
    expect(summarizeArgs('{"command":"npm   test","yield_ms":100}')).toBe('npm test')
    expect(summarizeArgs('{"command":"ls -l')).toBe('ls -l')
  })

  it('groups sessions by day with pinned first', () => {
    const now = new Date(2026, 5, 10, 12).getTime()
    const day = 86_400_000
    const s = (id: string, at: number, pinned = false) =>
      ({ id, lastActivityAt: at, pinned }) as SessionRecord
    const groups = groupSessions(
      [
        s('old', now - 30 * day),
        s('today', now - 1000),
        s('pin', now - 40 * day, true),
        s('yday', now - day),
        s('week', now - 3 * day)
      ],
      now
    )
    expect(groups.map((g) => [g.key, g.sessions.map((x) => x.id)])).toEqual([
      ['pinned', ['pin']],
      ['today', ['today']],
      ['yesterday', ['yday']],
      ['week', ['week']],
      ['older', ['old']]
    ])
  })
})
