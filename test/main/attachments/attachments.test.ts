import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ATTACHMENT_LIMITS } from '@shared/types/attachments'
import { picked, call, textReply, useLoopHarness } from '../loop/helpers'
import { makeDocx, makePdf, makeXlsx, PIXEL_PNG } from '../../fixtures/documents'
import { codeOf, upload, userImages, userTexts } from './helpers'
import {
  attachmentsBeginUpload,
  attachmentsFinishUpload,
  attachmentsPickFiles,
  attachmentsUploadChunk
} from '@shared/contracts/routes/attachments.routes'
import { chatSendMessage } from '@shared/contracts/routes/chat.routes'
import { sessionsFork } from '@shared/contracts/routes/sessions.routes'

const harness = useLoopHarness()

describe('attachments reach the model', () => {
  it('sends PDF, Word, Excel, CSV and code files as their text under their names', async () => {
    const h = await harness([textReply('Read them all.')])
    const files = [
      await upload(h, 'report.pdf', await makePdf(['Pelican census page one', 'Second page heron'])),
      await upload(h, 'memo.docx', await makeDocx(['Memo about egrets', 'Signed, the warden'])),
      await upload(
        h,
        'birds.xlsx',
        await makeXlsx({
          Counts: [
            ['species', 'count'],
            ['ibis', 12],
            ['stork', 3]
          ]
        })
      ),
      await upload(h, 'tides.csv', Buffer.from('day,height\nmon,"1,2"\ntue,3.4\n'), 'text/csv'),
      await upload(h, 'main.rs', Buffer.from('fn main() { println!("kingfisher"); }\n'))
    ]
    expect(files.map((f) => f.kind)).toEqual(['pdf', 'docx', 'spreadsheet', 'csv', 'text'])
    const accepted = await call(h, chatSendMessage, {
      text: 'Summarise these',
      attachments: files.map((f) => ({ sha256: f.sha256, name: f.name })),
      newSession: {
        providerId: 'fake-openai',
        modelId: 'fake-model',
        workspaceDir: await picked(h, h.workspace)
      }
    })
    await h.idle(accepted.sessionId)
    const [text] = userTexts(h.bodies()[0])
    expect(text).toContain('<attachment name="report.pdf" type="PDF">')
    expect(text).toMatch(/\[Page 1\]\nPelican census page one\n\n\[Page 2\]\nSecond page heron/)
    expect(text).toContain('Memo about egrets')
    expect(text).toContain(
      '## Sheet: Counts\n\n| species | count |\n| --- | --- |\n| ibis | 12 |\n| stork | 3 |'
    )
    expect(text).toContain('| day | height |\n| --- | --- |\n| mon | 1,2 |\n| tue | 3.4 |')
    expect(text).toContain('println!("kingfisher")')
    expect(text.indexOf('Summarise these')).toBeGreaterThan(text.indexOf('kingfisher'))
    const message = h.presenters.sessions.messages.require(accepted.userMessageId!)
    expect(message.content?.files.map((f) => [f.name, f.kind, f.size])).toEqual(
      files.map((f) => [f.name, f.kind, f.size])
    )
  })

  it('uploads a file larger than one bridge frame in chunks', async () => {
    const h = await harness([textReply('Long.')])
    const line = 'The osprey dives for fish at dawn.\n'
    const big = Buffer.from(line.repeat(Math.ceil((9 * 1024 * 1024) / line.length)))
    const file = await upload(h, 'log.txt', big)
    expect(file).toMatchObject({ kind: 'text', size: big.length })
    expect(file.textChars).toBe(2_000_000 + '\n[… the file is longer; the rest was not extracted]'.length)
  })

  it('sends an image to a vision model as an image part', async () => {
    const h = await harness([textReply('A pixel.')], { vision: true })
    const image = await upload(h, 'dot.png', PIXEL_PNG, 'image/png')
    const accepted = await call(h, chatSendMessage, {
      text: 'What is it?',
      attachments: [{ sha256: image.sha256, name: 'dot.png' }],
      newSession: {
        providerId: 'fake-openai',
        modelId: 'fake-model',
        workspaceDir: await picked(h, h.workspace)
      }
    })
    await h.idle(accepted.sessionId)
    expect(userImages(h.bodies()[0])).toEqual([`data:image/png;base64,${PIXEL_PNG.toString('base64')}`])
  })

  it('tells a model without vision that an image was attached instead of dropping it', async () => {
    const h = await harness([textReply('I cannot see it.')], { vision: false })
    const image = await upload(h, 'dot.png', PIXEL_PNG, 'image/png')
    const accepted = await call(h, chatSendMessage, {
      text: 'What is it?',
      attachments: [{ sha256: image.sha256, name: 'dot.png' }],
      newSession: {
        providerId: 'fake-openai',
        modelId: 'fake-model',
        workspaceDir: await picked(h, h.workspace)
      }
    })
    await h.idle(accepted.sessionId)
    expect(userImages(h.bodies()[0])).toEqual([])
    expect(userTexts(h.bodies()[0])[0]).toContain(
      'attached the image "dot.png", but this model cannot view images, so it was not sent'
    )
  })

  it('cuts a long extract to the context with a note saying how much was shown', async () => {
    const h = await harness([textReply('Partial.')], { contextLength: 8_000, maxOutputTokens: 1_000 })
    const words = Array.from({ length: 20_000 }, (_, i) => `w${i}`).join(' ')
    const file = await upload(h, 'long.md', Buffer.from(words))
    const accepted = await call(h, chatSendMessage, {
      text: 'Skim it',
      attachments: [{ sha256: file.sha256, name: 'long.md' }],
      newSession: {
        providerId: 'fake-openai',
        modelId: 'fake-model',
        workspaceDir: await picked(h, h.workspace)
      }
    })
    await h.idle(accepted.sessionId)
    const [text] = userTexts(h.bodies()[0])
    expect(text).toMatch(/\[Truncated to fit the context: [\d,]+ of [\d,]+ characters shown\.\]/)
    expect(text.length).toBeLessThan(words.length)
    expect(text).toContain('w0 w1 w2')
  })

  it('stores the same content once, whatever it is called', async () => {
    const h = await harness([])
    const a = await upload(h, 'a.txt', Buffer.from('same bytes'))
    const b = await upload(h, 'b.txt', Buffer.from('same bytes'))
    expect(a.sha256).toBe(b.sha256)
    const stored = readdirSync(join(h.dataDir, 'attachments'))
    expect(stored.sort()).toEqual([a.sha256, `${a.sha256}.json`, `${a.sha256}.txt`])
  })

  it('keeps attachments across a restart and in a forked chat', async () => {
    const h = await harness([textReply('First.'), textReply('Second.'), textReply('Forked.')])
    const file = await upload(h, 'notes.txt', Buffer.from('The cormorant dries its wings.'))
    const first = await call(h, chatSendMessage, {
      text: 'Remember this',
      attachments: [{ sha256: file.sha256, name: 'notes.txt' }],
      newSession: {
        providerId: 'fake-openai',
        modelId: 'fake-model',
        workspaceDir: await picked(h, h.workspace)
      }
    })
    await h.idle(first.sessionId)
    await h.restart()
    await h.send('And now?', { sessionId: first.sessionId })
    await h.idle(first.sessionId)
    expect(userTexts(h.bodies()[1])[0]).toContain('The cormorant dries its wings.')
    const { session: fork } = await call(h, sessionsFork, {
      sessionId: first.sessionId,
      messageId: first.assistantMessageId!
    })
    await h.send('In the fork', { sessionId: fork.id })
    await h.idle(fork.id)
    expect(userTexts(h.bodies()[2])[0]).toContain('The cormorant dries its wings.')
  })
})

describe('attachment limits and bad files', () => {
  it('refuses files over the size limit before any byte is sent, with the numbers', async () => {
    const h = await harness([])
    const error = await call(h, attachmentsBeginUpload, {
      name: 'huge.pdf',
      mimeType: 'application/pdf',
      size: ATTACHMENT_LIMITS.maxFileBytes + 1
    }).catch((e: Error & { code: string }) => e)
    expect(error).toMatchObject({ code: 'attachment_too_large' })
    expect((error as Error).message).toMatch(/huge\.pdf is 25\.0 MB; attachments can be at most 25\.0 MB/)
    expect(
      await codeOf(h, attachmentsBeginUpload, {
        name: 'big.png',
        mimeType: 'image/png',
        size: ATTACHMENT_LIMITS.maxImageBytes + 1
      })
    ).toBe('attachment_too_large')
  })

  it('refuses binary files it cannot read, and a broken PDF, clearly', async () => {
    const h = await harness([])
    const binary = await upload(h, 'tool.exe', Buffer.from([0x4d, 0x5a, 0x00, 0x01, 0xff])).catch(
      (e: Error & { code: string }) => e
    )
    expect(binary).toMatchObject({ code: 'attachment_unsupported' })
    expect((binary as Error).message).toContain('tool.exe cannot be attached: only images')
    const broken = await upload(h, 'bad.pdf', Buffer.from('%PDF-1.7\nthis is not a pdf')).catch(
      (e: Error & { code: string }) => e
    )
    expect(broken).toMatchObject({ code: 'attachment_unreadable' })
    expect((broken as Error).message).toContain('bad.pdf could not be read as PDF')
  })

  it('refuses chunks out of order, oversize uploads and unfinished uploads', async () => {
    const h = await harness([])
    const { uploadId } = await call(h, attachmentsBeginUpload, { name: 'x.txt', mimeType: '', size: 4 })
    expect(await codeOf(h, attachmentsUploadChunk, { uploadId, index: 1, data: 'aGk=' })).toBe(
      'invalid_input'
    )
    await call(h, attachmentsUploadChunk, { uploadId, index: 0, data: 'aGk=' })
    expect(await codeOf(h, attachmentsFinishUpload, { uploadId })).toBe('upload_incomplete')
    expect(await codeOf(h, attachmentsFinishUpload, { uploadId })).toBe('upload_not_found')
    const second = await call(h, attachmentsBeginUpload, { name: 'y.txt', mimeType: '', size: 1 })
    expect(
      await codeOf(h, attachmentsUploadChunk, { uploadId: second.uploadId, index: 0, data: 'aGk=' })
    ).toBe('invalid_input')
  })

  it('refuses a send naming content that is not stored, and creates no chat', async () => {
    const h = await harness([])
    expect(
      await codeOf(h, chatSendMessage, {
        text: 'hi',
        attachments: [{ sha256: 'a'.repeat(64), name: 'ghost.txt' }],
        newSession: { providerId: 'fake-openai', modelId: 'fake-model' }
      })
    ).toBe('attachment_not_found')
    expect(
      await codeOf(h, chatSendMessage, {
        text: 'hi',
        attachments: Array.from({ length: 11 }, () => ({ sha256: 'a'.repeat(64), name: 'x' })),
        newSession: { providerId: 'fake-openai', modelId: 'fake-model' }
      })
    ).toBe('invalid_input')
    expect(h.presenters.sessions.list().sessions).toHaveLength(0)
  })

  it('answers the native file dialog route with "not supported" in the headless host', async () => {
    const h = await harness([])
    expect(await call(h, attachmentsPickFiles, {})).toEqual({ supported: false })
  })
})
