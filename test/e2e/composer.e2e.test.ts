import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { providersAdd } from '@shared/contracts/routes/providers.routes'
import { mcpAdd, mcpStart } from '@shared/contracts/routes/mcp.routes'
import { librarySaveAssistant, librarySavePrompt } from '@shared/contracts/routes/library.routes'
import { draftsGet } from '@shared/contracts/routes/drafts.routes'
import { launchBrowser } from './helpers/browser'
import {
  type ChatHost,
  lastUserText,
  openChat,
  sendFromInput,
  startChatHost,
  textReply
} from './helpers/chatHost'
import { makeDocx, makePdf, makeXlsx, PIXEL_PNG } from '../fixtures/documents'
import { openAiBody, type OpenAiRequest } from '../fixtures/llm/openAiRequest'

const COMPOSER_SERVER = join(import.meta.dirname, '..', 'fixtures', 'mcp', 'composerServer.mjs')
const VISION = 'fake-vision\u0000vision-model'

let chat: ChatHost
let browser: Browser

/** The text of the last user message in an OpenAI request body, its parts joined. */

beforeAll(async () => {
  chat = await startChatHost((request) =>
    lastUserText(request.body).includes('take your time')
      ? { steps: [{ type: 'text', text: 'Thinking it over' }, { type: 'stall' }] }
      : textReply('Noted, thank you.')
  )
  await chat.bridge.call(providersAdd, {
    provider: {
      id: 'fake-vision',
      kind: 'openai',
      name: 'Vision provider',
      baseUrl: chat.llm.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [
        {
          id: 'vision-model',
          name: 'Vision model',
          contextLength: 128_000,
          maxOutputTokens: 8192,
          vision: true,
          toolCalling: true,
          reasoning: false,
          enabled: true
        }
      ],
      maxRetries: 0
    }
  })
  browser = await launchBrowser()
}, 60_000)

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

/** The generation request whose last user message contains `marker` (waits for it). */
async function requestWith(marker: string): Promise<OpenAiRequest> {
  await expect
    .poll(() => chat.llm.generationRequests().some((r) => lastUserText(r.body).includes(marker)), {
      timeout: 15_000
    })
    .toBe(true)
  return openAiBody(chat.llm.generationRequests().find((r) => lastUserText(r.body).includes(marker))!.body)
}

async function attach(page: Page, files: Array<{ name: string; mimeType: string; buffer: Buffer }>) {
  await page.getByTestId('attach-input').setInputFiles(files)
  const chips = page.getByTestId('attachment-chip')
  await expect.poll(() => chips.count()).toBe(files.length)
  // The first PDF loads its reader in main: allow for that.
  await expect
    .poll(
      async () => (await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))).join(),
      {
        timeout: 20_000
      }
    )
    .toBe(files.map(() => 'ready').join())
}

/** The app's route (it lives in the address's hash). */
const route = (page: Page) => new URL(page.url()).hash.replace(/^#/, '')

async function answered(page: Page): Promise<void> {
  await expect
    .poll(() => page.getByTestId('assistant-message').last().getAttribute('data-status'), { timeout: 15_000 })
    .toBe('sent')
}

describe('attachments', () => {
  it('warns that a model without vision will not get an image, and sends it to a vision model as an image part', async () => {
    const { page } = await openChat(browser, chat.host)
    await attach(page, [{ name: 'pixel.png', mimeType: 'image/png', buffer: PIXEL_PNG }])
    await expect.poll(() => page.getByTestId('vision-notice').textContent()).toContain('cannot see images')
    await page.getByTestId('model-picker').selectOption(VISION)
    await expect.poll(() => page.getByTestId('vision-notice').count()).toBe(0)
    await sendFromInput(page, 'what colour is this pixel')
    const body = await requestWith('what colour is this pixel')
    const user = body.messages.at(-1)
    const image = (Array.isArray(user?.content) ? user.content : []).find((p) => p.type === 'image_url')
    expect(image?.image_url?.url).toBe(`data:image/png;base64,${PIXEL_PNG.toString('base64')}`)
    await answered(page)
    // The message keeps its chip, also after a reload.
    await page.reload()
    await expect
      .poll(() => page.getByTestId('message-attachment').first().textContent())
      .toContain('pixel.png')
    await page.close()
  })

  it('gives the model the text of PDF, Word and Excel files made here', async () => {
    const { page } = await openChat(browser, chat.host)
    await attach(page, [
      {
        name: 'report.pdf',
        mimeType: 'application/pdf',
        buffer: await makePdf(['Herons nest in colonies.'])
      },
      {
        name: 'notes.docx',
        mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        buffer: await makeDocx(['Egrets winter in the south.'])
      },
      {
        name: 'counts.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: await makeXlsx({
          Counts: [
            ['bird', 'count'],
            ['bittern', 7]
          ]
        })
      }
    ])
    await sendFromInput(page, 'summarise the three files')
    const text = lastUserText(await requestWith('summarise the three files'))
    expect(text).toContain('report.pdf')
    expect(text).toContain('Herons nest in colonies.')
    expect(text).toContain('notes.docx')
    expect(text).toContain('Egrets winter in the south.')
    expect(text).toContain('counts.xlsx')
    expect(text).toMatch(/bittern\s*\|\s*7/)
    await answered(page)
    await expect.poll(() => page.getByTestId('message-attachment').count()).toBe(3)
    await page.close()
  })

  it('refuses an empty file and an oversized image with clear messages on their chips', async () => {
    const { page } = await openChat(browser, chat.host)
    await page
      .getByTestId('attach-input')
      .setInputFiles([{ name: 'empty.txt', mimeType: 'text/plain', buffer: Buffer.alloc(0) }])
    await expect
      .poll(() => page.getByTestId('attachment-error').textContent())
      .toContain('empty.txt is empty')
    await page
      .getByTestId('attach-input')
      .setInputFiles([{ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(11 * 1024 * 1024, 1) }])
    await expect
      .poll(() => page.getByTestId('attachment-error').last().textContent())
      .toContain('huge.png is 11.0 MB; the limit for images is 10 MB.')
    expect(await page.getByTestId('send-button').isDisabled()).toBe(true)
    await page.close()
  })
})

describe('instructions and parameters', () => {
  it("sends a chat's system prompt and temperature, and a change on the open chat applies to its next request", async () => {
    const { page } = await openChat(browser, chat.host)
    await page.getByTestId('chat-params-button').click()
    await page.getByTestId('params-system-prompt').fill('Answer like a field ornithologist.')
    await page.getByTestId('params-temperature').fill('0.3')
    await page.getByTestId('params-apply').click()
    await page.getByTestId('chat-params-button').click()
    await expect.poll(() => page.getByTestId('chat-params-panel').count()).toBe(0)
    await sendFromInput(page, 'first parameter check')
    const first = await requestWith('first parameter check')
    expect(first.messages[0].role).toBe('system')
    expect(first.messages[0].content).toContain('Answer like a field ornithologist.')
    expect(first.temperature).toBe(0.3)
    await answered(page)

    await expect.poll(() => page.url()).toContain('/chat/')
    await page.getByTestId('chat-params-button').click()
    await expect.poll(() => page.getByTestId('params-temperature').inputValue()).toBe('0.3')
    await page.getByTestId('params-temperature').fill('0.9')
    await page.getByTestId('params-apply').click()
    await page.getByTestId('chat-params-button').click()
    await sendFromInput(page, 'second parameter check')
    const second = await requestWith('second parameter check')
    expect(second.temperature).toBe(0.9)
    expect(second.messages[0].content).toContain('Answer like a field ornithologist.')
    await page.close()
  })
})

describe('assistants', () => {
  it('starts a chat with the instructions and parameters of the assistant picked in the composer', async () => {
    await chat.bridge.call(librarySaveAssistant, {
      assistant: { name: 'Birder', systemPrompt: 'You are a birding guide.', params: { temperature: 0.6 } }
    })
    const { page } = await openChat(browser, chat.host)
    await page.getByTestId('assistant-picker').selectOption({ label: 'Birder' })
    await sendFromInput(page, 'assistant check')
    const body = await requestWith('assistant check')
    expect(body.messages[0].content).toContain('You are a birding guide.')
    expect(body.temperature).toBe(0.6)
    await page.close()
  })
})

describe('the / and @ menus', () => {
  it('inserts a saved prompt with its variable filled in', async () => {
    await chat.bridge.call(librarySavePrompt, {
      prompt: { name: 'translate', description: 'Translate a text', body: 'Translate into {{language}}: ' }
    })
    const { page } = await openChat(browser, chat.host)
    const input = page.getByTestId('chat-input-text')
    await input.fill('')
    await input.pressSequentially('/tra')
    await expect
      .poll(() => page.getByTestId('composer-menu-item').first().textContent())
      .toContain('/translate')
    await input.press('Enter')
    await page.getByTestId('field-language').fill('French')
    await page.getByTestId('field-language').press('Enter')
    await expect.poll(() => input.inputValue()).toBe('Translate into French: ')
    // The new-chat page keeps its draft (drafts per chat): the user clears it for the next test.
    await input.fill('')
    await expect
      .poll(async () => (await chat.bridge.call(draftsGet, { sessionId: null })).draft?.text ?? '')
      .toBe('')
    await page.close()
  })

  it('uses an MCP prompt as a / command and attaches an MCP resource by @; both reach the model', async () => {
    await chat.bridge.call(mcpAdd, {
      server: {
        id: 'memo',
        name: 'memo',
        type: 'stdio',
        command: process.execPath,
        args: [COMPOSER_SERVER],
        enabled: false
      }
    })
    await chat.bridge.call(mcpStart, { serverId: 'memo' })
    const { page } = await openChat(browser, chat.host)
    const input = page.getByTestId('chat-input-text')
    await input.pressSequentially('/review')
    await expect
      .poll(() => page.getByTestId('composer-menu-item').first().textContent())
      .toContain('/review_code')
    await input.press('Enter')
    await page.getByTestId('field-language').fill('Rust')
    await page.getByTestId('field-language').press('Enter')
    await expect.poll(() => input.inputValue()).toBe('Review this Rust code.')

    await input.press('End')
    await input.pressSequentially(' @gui')
    await expect.poll(() => page.getByTestId('composer-menu-item').first().textContent()).toContain('guide')
    await input.press('Enter')
    await expect.poll(() => page.getByTestId('attachment-chip').getAttribute('data-status')).toBe('ready')
    await input.press('Enter')
    const text = lastUserText(await requestWith('Review this Rust code.'))
    expect(text).toContain('Herons wade.')
    await page.close()
  }, 60_000)
})

describe('keyboard shortcuts', () => {
  it('opens search, settings, a new chat and the shortcuts sheet, and focuses the composer', async () => {
    const { page } = await openChat(browser, chat.host)
    await page.locator('body').click()
    await page.keyboard.press('Control+k')
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('history-search')
    await page.keyboard.press('Control+,')
    await expect.poll(() => route(page)).toMatch(/^\/settings/)
    await page.keyboard.press('Control+Shift+O')
    await expect.poll(() => route(page)).toBe('/')
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('chat-input-text')
    // The keys are named where the mouse goes too.
    expect(await page.getByTestId('new-chat').getAttribute('title')).toContain('Ctrl+Shift+O')
    expect(await page.getByTestId('history-search').getAttribute('title')).toContain('Ctrl+K')
    await page.keyboard.press('Control+/')
    await page.getByTestId('shortcuts-sheet').waitFor()
    expect(await page.getByTestId('shortcuts-sheet').textContent()).toContain('Ctrl+Shift+C')
    await page.keyboard.press('Escape')
    await expect.poll(() => page.getByTestId('shortcuts-sheet').count()).toBe(0)
    await page.locator('body').click()
    await page.keyboard.press('Shift+Escape')
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('chat-input-text')
    await page.close()
  })

  it('stops generating with Esc, copies the last answer, and edits the last message with ArrowUp', async () => {
    const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] })
    const page = await context.newPage()
    await page.goto(chat.host.url)
    await sendFromInput(page, 'a short one')
    await answered(page)
    await page.locator('body').click()
    await page.keyboard.press('Control+Shift+C')
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('Noted, thank you.')

    await sendFromInput(page, 'take your time')
    await page.getByTestId('stop-button').waitFor()
    await page.keyboard.press('Escape')
    await page.getByTestId('send-button').waitFor()
    await expect
      .poll(() => page.getByTestId('assistant-message').last().getAttribute('data-status'))
      .toBe('cancelled')

    await page.getByTestId('chat-input-text').focus()
    await page.keyboard.press('ArrowUp')
    await expect.poll(() => page.getByTestId('user-edit-input').inputValue()).toBe('take your time')
    await context.close()
  })
})

describe('first load', () => {
  it('loads no document reader in the page, and the / menu and attachment chips only when used', async () => {
    const page = await browser.newPage()
    const scripts: string[] = []
    page.on('response', async (response) => {
      if (response.url().endsWith('.js')) scripts.push(`${response.url()}\n${await response.text()}`)
    })
    await page.goto(chat.host.url)
    await page.getByTestId('chat-input-text').waitFor()
    await page.getByTestId('chat-params-button').waitFor()
    const names = () => scripts.map((s) => s.split('\n')[0].split('/').pop())
    expect(names().some((n) => n?.startsWith('ChatPage-'))).toBe(true)
    for (const lazy of ['useComposerMenus-', 'ComposerMenu-', 'FieldsDialog-', 'AttachmentChips-'])
      expect(
        names().some((n) => n?.startsWith(lazy)),
        lazy
      ).toBe(false)
    await page.getByTestId('chat-input-text').pressSequentially('/')
    await page.getByTestId('composer-menu').waitFor()
    expect(names().some((n) => n?.startsWith('useComposerMenus-'))).toBe(true)
    // PDF, Word and Excel are read in main; none of their readers reaches the page.
    for (const script of scripts) expect(script).not.toMatch(/mammoth|exceljs|unpdf|pdfjs-dist/i)
    await page.close()
  })
})
