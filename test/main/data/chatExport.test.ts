import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { MessageBlock } from '@shared/types/chat'
import type { MessageRecord } from '@shared/types/session'
import { DataPresenter } from '../../../src/main/presenter/dataPresenter'
import { AttachmentPresenter } from '../../../src/main/presenter/attachmentPresenter'
import { openSessionFixture, type SessionFixture } from '../sessions/helpers'
import { useTempDirs } from '../helpers/tempDir'

const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

type BlockInput = MessageBlock extends infer B
  ? B extends MessageBlock
    ? Omit<B, 'createdAt' | 'updatedAt'>
    : never
  : never
const stamped = (block: BlockInput) => ({ ...block, createdAt: 1, updatedAt: 1 }) as MessageBlock

/** What a person sees of a message: its role, status, text, blocks and attachment names (not ids or times). */
const visible = (m: MessageRecord) => ({
  role: m.role,
  status: m.status,
  text: m.content?.text ?? null,
  files: m.content?.files.map((f) => f.name) ?? [],
  blocks: m.blocks.map(({ createdAt: _c, updatedAt: _u, ...rest }) => rest)
})

describe('chat export and import', () => {
  const tempDir = useTempDirs()

  /** What a DataPresenter reads for backups; these tests export and import chats, never back up. */
  const backupOf = (fixture: SessionFixture) => ({
    db: fixture.sqlite.db,
    dataDir: tempDir(),
    secretsFile: '/nonexistent',
    appVersion: '0.1.0',
    folder: () => '/nonexistent-backups'
  })
  let fx: SessionFixture
  let data: DataPresenter
  let sessionId: string
  let attachment: string

  beforeEach(() => {
    fx = openSessionFixture()
    data = new DataPresenter({
      sessions: fx.sessions,
      backup: backupOf(fx),
      now: () => 1_700_000_000_000
    })
    attachment = join(tempDir(), 'notes.txt')
    writeFileSync(attachment, 'the attached notes')
    const session = fx.sessions.create({ title: 'Sorting <fast>' })
    sessionId = session.id
    fx.sessions.messages.appendUserMessage(sessionId, {
      text: 'Sort this, see <notes>',
      files: [{ name: 'notes.txt', path: attachment, mimeType: 'text/plain' }]
    })
    const answer = fx.sessions.messages.createAssistantMessage(sessionId)
    fx.sessions.messages.finalizeAssistantMessage(answer.id, {
      status: 'sent',
      blocks: [
        stamped({ id: 'r', kind: 'reasoning_content', status: 'success', text: 'They want quicksort.' }),
        stamped({
          id: 't',
          kind: 'tool_call',
          status: 'success',
          text: '',
          toolCall: {
            id: 'call_1',
            name: 'read',
            params: '{"path":"notes.txt"}',
            response: 'the attached notes'
          }
        }),
        stamped({
          id: 'c',
          kind: 'content',
          status: 'success',
          text: 'Here it is:\n\n```ts\nconst sorted = xs.sort((a, b) => a - b)\n```\n\n![remote](https://example.com/x.png)'
        }),
        stamped({
          id: 'i',
          kind: 'image',
          status: 'success',
          text: '',
          data: { mimeType: 'image/png', data: PNG_1PX }
        })
      ]
    })
  })
  afterEach(() => fx.close())

  const messagesOf = (id: string) => fx.sessions.messages.list(id, { limit: 200 }).messages

  it('exports Markdown with the title, each turn, the code fence and the tool call', () => {
    const file = data.exportChat(sessionId, 'markdown')
    expect(file.fileName).toBe('Sorting fast.md')
    expect(file.mimeType).toBe('text/markdown')
    expect(file.content).toMatch(
      /^# Sorting <fast>\n\n## You\n\nSort this, see <notes>\n\n📎 notes.txt\n\n## Assistant/
    )
    expect(file.content).toContain('```ts\nconst sorted = xs.sort((a, b) => a - b)\n```')
    expect(file.content).toContain('**Tool: read**')
    expect(file.content).toContain('> They want quicksort.')
  })

  it('exports HTML that is self-contained: code highlighted, images inlined, nothing loaded from outside', () => {
    const { content, mimeType } = data.exportChat(sessionId, 'html')
    expect(mimeType).toBe('text/html')
    expect(content).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:`
    )
    expect(content).toContain('<span class="hljs-keyword">const</span>')
    expect(content).toContain(`src="data:image/png;base64,${PNG_1PX}"`)
    expect(content).toContain('Sort this, see &lt;notes&gt;')
    expect(content).not.toMatch(/<script|<link|@import/i)
    // The only outside address is the model's image, which the page's CSP blocks.
    const urls = [...content.matchAll(/(?:src|href)="(https?:[^"]+)"/g)].map((m) => m[1])
    expect(urls).toEqual(['https://example.com/x.png'])
  })

  it('round-trips through JSON into a new chat with the same messages, blocks and attachments', async () => {
    const exported = data.exportChat(sessionId, 'json')
    const { session: imported } = await data.importChat(exported.content)
    expect(imported.id).not.toBe(sessionId)
    expect(imported.title).toBe('Sorting <fast>')
    const before = messagesOf(sessionId)
    const after = messagesOf(imported.id)
    expect(after.map(visible)).toEqual(before.map(visible))
    // A file known only by a stored path is exported by name: the path is never read or kept.
    expect(JSON.parse(exported.content).messages[0].attachments).toEqual([
      { name: 'notes.txt', mimeType: 'text/plain' }
    ])
    expect(after[0].content!.files[0]).toEqual({ name: 'notes.txt', mimeType: 'text/plain' })
    // The import exports to the same document (apart from the time it was made).
    expect(JSON.parse(data.exportChat(imported.id, 'json').content).messages.map(visibleOfExport)).toEqual(
      JSON.parse(exported.content).messages.map(visibleOfExport)
    )
  })

  it('carries attachments stored by hash through export and back into the store on import', async () => {
    const store = new AttachmentPresenter({ dir: tempDir() })
    const withStore = new DataPresenter({
      sessions: fx.sessions,
      attachments: store,
      backup: backupOf(fx)
    })
    const view = await store.addBytes('report.csv', 'text/csv', Buffer.from('a,b\n1,2\n'))
    const chat = fx.sessions.create({ title: 'Stored' })
    fx.sessions.messages.appendUserMessage(chat.id, {
      text: 'see the table',
      files: store.resolve([{ sha256: view.sha256, name: 'report.csv' }])
    })
    const exported = withStore.exportChat(chat.id, 'json')
    const sent = JSON.parse(exported.content).messages[0].attachments[0]
    expect(Buffer.from(sent.data, 'base64').toString()).toBe('a,b\n1,2\n')

    // Imported into another data folder: the bytes land in its store under the same hash.
    const otherStore = new AttachmentPresenter({ dir: tempDir() })
    const elsewhere = new DataPresenter({
      sessions: fx.sessions,
      attachments: otherStore,
      backup: backupOf(fx)
    })
    const { session: imported } = await elsewhere.importChat(exported.content)
    const file = messagesOf(imported.id)[0].content!.files[0]
    expect(file).toMatchObject({ name: 'report.csv', sha256: view.sha256 })
    expect(otherStore.reader().bytes(view.sha256).toString()).toBe('a,b\n1,2\n')
  })

  it('refuses files that are not chat exports, and exports from a newer version, with clear errors', async () => {
    await expect(data.importChat('not json')).rejects.toThrow(/not a chat export/)
    await expect(data.importChat('{"format":"something-else","version":1}')).rejects.toThrow(
      /not a DeepChat Desk chat export/
    )
    const newer = { ...JSON.parse(data.exportChat(sessionId, 'json').content), version: 99 }
    await expect(data.importChat(JSON.stringify(newer))).rejects.toThrow(/newer version/)
    expect(() => data.exportChat('no-such-chat', 'json')).toThrow()
  })
})

function visibleOfExport(m: { role: string; content: unknown; blocks: Array<Record<string, unknown>> }) {
  return {
    role: m.role,
    text: (m.content as { text?: string } | null)?.text ?? null,
    blocks: m.blocks.map(({ createdAt: _c, updatedAt: _u, ...rest }) => rest)
  }
}
