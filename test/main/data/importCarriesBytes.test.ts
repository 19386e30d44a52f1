import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CHAT_EXPORT_FORMAT, CHAT_EXPORT_VERSION } from '@shared/types/chatExport'
import { useTempDirs } from '../helpers/tempDir'
import { call, textReply, useLoopHarness, type LoopHarness } from '../loop/helpers'
import { dataImportChat } from '@shared/contracts/routes/data.routes'

// An imported chat is a file from anywhere: it may name paths and hashes, but only the bytes it
// carries become attachments. The fake provider sees exactly what the next turn sends.
const harness = useLoopHarness()
const tempDir = useTempDirs()

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64'
)
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex')

function exportWith(files: unknown[], attachments: unknown[]): string {
  return JSON.stringify({
    format: CHAT_EXPORT_FORMAT,
    version: CHAT_EXPORT_VERSION,
    exportedAt: 1,
    chat: { title: 'Imported', providerId: 'fake-openai', modelId: 'fake-model', createdAt: 1 },
    messages: [
      {
        role: 'user',
        status: 'sent',
        content: { text: 'look at these', files, links: [] },
        blocks: [],
        attachments,
        createdAt: 1
      },
      { role: 'assistant', status: 'sent', content: null, blocks: [], attachments: [], createdAt: 2 }
    ]
  })
}

/** Imports `json`, then sends one more message in the imported chat; the provider's request as text. */
async function importThenTurn(h: LoopHarness, json: string) {
  const imported = await call(h, dataImportChat, { content: json })
  await h.send('and now?', { sessionId: imported.session.id })
  await h.idle(imported.session.id)
  const bodies = h.bodies()
  expect(bodies.length).toBeGreaterThan(0)
  return { imported, request: JSON.stringify(bodies.at(-1)) }
}

describe('importing a chat carries bytes, never paths', () => {
  it('an attachment with a path and no bytes is not read: the secret file never reaches the provider', async () => {
    const h = await harness([textReply('ok')], { vision: true })
    const outside = tempDir()
    // A PNG that a model would take, with a secret behind it; and a plain text secret.
    const secretImage = Buffer.concat([PNG_1PX, Buffer.from('SECRET-IMAGE-TAIL-7f3a')])
    writeFileSync(join(outside, 'id.png'), secretImage)
    writeFileSync(join(outside, 'token.txt'), 'SECRET-TOKEN-91c2')
    const json = exportWith(
      [
        { name: 'shot.png', path: join(outside, 'id.png'), mimeType: 'image/png', kind: 'image' },
        { name: 'token.txt', path: join(outside, 'token.txt'), mimeType: 'text/plain' }
      ],
      [{ name: 'shot.png', mimeType: 'image/png' }, { name: 'token.txt' }]
    )
    const { imported, request } = await importThenTurn(h, json)
    expect(request).not.toContain(secretImage.toString('base64').slice(0, 40))
    expect(request).not.toContain('SECRET-TOKEN-91c2')
    expect(request).not.toContain(outside)
    expect(request).toContain('look at these')
    const files = h.presenters.sessions.messages
      .list(imported.session.id)
      .messages.find((m) => m.role === 'user')!.content!.files
    expect(files.map((f) => f.path ?? null)).toEqual([null, null])
    expect(imported.notes).toEqual([
      'shot.png: the file carries no content for it, so only its name was imported.',
      'token.txt: the file carries no content for it, so only its name was imported.'
    ])
  })

  it('bytes whose hash differs from the one the message names are dropped with a note', async () => {
    const h = await harness([textReply('ok')], { vision: true })
    const claimed = Buffer.from('what the message says it is')
    const carried = Buffer.from('TAMPERED-CONTENT-55d1')
    const json = exportWith(
      [{ name: 'a.txt', sha256: sha256(claimed), mimeType: 'text/plain', kind: 'text', size: 27 }],
      [{ name: 'a.txt', mimeType: 'text/plain', data: carried.toString('base64') }]
    )
    const { imported, request } = await importThenTurn(h, json)
    expect(request).not.toContain('TAMPERED-CONTENT-55d1')
    expect(imported.notes).toEqual(['a.txt: its content does not match its SHA-256, so it was dropped.'])
    expect(h.presenters.attachments.store.has(sha256(carried))).toBe(false)
  })

  it("a hash with no bytes does not borrow another chat's stored attachment", async () => {
    const h = await harness([textReply('ok')], { vision: true })
    const other = await h.presenters.attachments.addBytes(
      'private.txt',
      'text/plain',
      Buffer.from('OTHER-CHAT-PRIVATE-0b9e')
    )
    const json = exportWith(
      [{ name: 'x.txt', sha256: other.sha256, mimeType: 'text/plain', kind: 'text', size: 24 }],
      [{ name: 'x.txt' }]
    )
    const { request } = await importThenTurn(h, json)
    expect(request).not.toContain('OTHER-CHAT-PRIVATE-0b9e')
  })

  it('bytes that match their hash are stored and sent as before', async () => {
    const h = await harness([textReply('ok')], { vision: true })
    const notes = Buffer.from('CARRIED-NOTES-2aa4')
    const json = exportWith(
      [
        {
          name: 'notes.txt',
          sha256: sha256(notes),
          mimeType: 'text/plain',
          kind: 'text',
          size: notes.length
        },
        // An attachment from before hashes, carried with its bytes: its old path is not kept.
        { name: 'pic.png', path: '/somewhere/else/pic.png', mimeType: 'image/png' }
      ],
      [
        { name: 'notes.txt', mimeType: 'text/plain', data: notes.toString('base64') },
        { name: 'pic.png', mimeType: 'image/png', data: PNG_1PX.toString('base64') }
      ]
    )
    const { imported, request } = await importThenTurn(h, json)
    expect(imported.notes).toEqual([])
    expect(request).toContain('CARRIED-NOTES-2aa4')
    expect(request).toContain(PNG_1PX.toString('base64').slice(0, 40))
    const files = h.presenters.sessions.messages
      .list(imported.session.id)
      .messages.find((m) => m.role === 'user')!.content!.files
    expect(files.map((f) => [f.sha256, f.path ?? null])).toEqual([
      [sha256(notes), null],
      [sha256(PNG_1PX), null]
    ])
  })
})
