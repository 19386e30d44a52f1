import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import type { FakeResponse } from '../fixtures/llm/fakeLlm'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  callsReply,
  type ChatHost,
  lastUserText,
  sendFromInput,
  seriousA11yViolations,
  startChatHost,
  textReply,
  toolCall
} from './helpers/chatHost'
import { openAiBody, type OpenAiRequest } from '../fixtures/llm/openAiRequest'

let chat: ChatHost
let browser: Browser
let outside: string

/** Each chat names the file it writes; after the tool answered, the model says what it got. */
function reply(body: OpenAiRequest): FakeResponse {
  const last = body.messages.at(-1)!
  if (last.role === 'tool') return textReply(`Tool answered: ${String(last.content).slice(0, 80)}`)
  const text = lastUserText(body)
  const write = /^write (\w+)$/.exec(text)
  if (write)
    return callsReply(
      toolCall('w1', 'write', { path: join(outside, `${write[1]}.txt`), content: `new ${write[1]}\n` })
    )
  if (text === 'replace existing')
    return callsReply(
      toolCall('w2', 'write', { path: join(outside, 'existing.ts'), content: 'export const version = 2\n' })
    )
  if (text === 'edit existing')
    return callsReply(
      toolCall('e1', 'edit', {
        path: join(outside, 'existing.ts'),
        old_string: 'version = 1',
        new_string: 'version = 100'
      })
    )
  return textReply(`You said: ${text}`)
}

/**
 * The page's notification API and visibility, as a stand-in the test can read: the permission
 * starts undecided and the user grants it when asked; `__background` hides the page.
 */
/** What the stand-in keeps on the page's window. */
interface StubbedWindow {
  __notifications: Array<{ title: string; body: string; tag: string }>
  __permissionRequests: number
  __background: boolean
  Notification: unknown
}

async function stubNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as StubbedWindow
    w.__notifications = []
    w.__permissionRequests = 0
    w.__background = false
    let permission = 'default'
    class FakeNotification {
      static get permission() {
        return permission
      }
      static async requestPermission() {
        w.__permissionRequests += 1
        permission = 'granted'
        return permission
      }
      constructor(title: string, options: { body: string; tag: string }) {
        w.__notifications.push({ title, ...options })
      }
    }
    w.Notification = FakeNotification
    Object.defineProperty(document, 'visibilityState', { get: () => (w.__background ? 'hidden' : 'visible') })
    document.hasFocus = () => !w.__background
  })
}

async function openStubbed(): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 800 } })
  const page = await context.newPage()
  await stubNotifications(page)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(chat.host.url)
  await page.getByTestId('chat-input-text').waitFor()
  return { page, errors }
}

const readIfThere = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : null)

const sessionItem = (page: Page, title: string) =>
  page
    .getByTestId('session-item')
    .filter({ has: page.getByTestId('session-title').getByText(title, { exact: true }) })

beforeAll(async () => {
  chat = await startChatHost((request) => reply(openAiBody(request.body)))
  outside = chat.outsideDir()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

describe('approvals as cards in the chat', () => {
  it('lets two chats wait at once: badges mark both, the user switches and answers each, the badges clear', async () => {
    const { page, errors } = await openStubbed()
    await sendFromInput(page, 'write alpha')
    const alphaCard = page.getByTestId('permission-card')
    await alphaCard.waitFor({ timeout: 15_000 })
    await sessionItem(page, 'write alpha').getByTestId('session-waiting').waitFor()

    // The app stays usable: a new chat opens while the first one waits.
    await page.getByTestId('new-chat').click()
    await page.evaluate(() => ((window as unknown as StubbedWindow).__background = true))
    await sendFromInput(page, 'write beta')
    await page.getByTestId('permission-card').waitFor({ timeout: 15_000 })
    await sessionItem(page, 'write beta').getByTestId('session-waiting').waitFor()
    expect(await sessionItem(page, 'write alpha').getByTestId('session-waiting').count()).toBe(1)
    // Hidden page: the permission is asked once and the waiting chat notified.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as StubbedWindow).__notifications.length))
      .toBe(1)
    const [note] = await page.evaluate(() => (window as unknown as StubbedWindow).__notifications)
    expect(note.title).toBe('A chat needs your answer')
    expect(note.body).toContain('write beta')
    expect(await page.evaluate(() => (window as unknown as StubbedWindow).__permissionRequests)).toBe(1)
    await page.evaluate(() => ((window as unknown as StubbedWindow).__background = false))
    await page.screenshot({ path: artifactPath('approvals-two-waiting.png') })

    // Back to the first chat: its card is there; Allow once runs the write.
    await sessionItem(page, 'write alpha').getByTestId('session-link').click()
    const card = page.getByTestId('permission-card')
    await expect.poll(() => card.getByTestId('file-preview-path').textContent()).toContain('alpha.txt')
    await card.getByTestId('permission-allow-once').click()
    await card.waitFor({ state: 'detached' })
    await expect.poll(() => sessionItem(page, 'write alpha').getByTestId('session-waiting').count()).toBe(0)
    // The write runs once allowed (the badge clears as the turn resumes, before the file lands).
    await expect.poll(() => readIfThere(join(outside, 'alpha.txt'))).toBe('new alpha\n')
    expect(await sessionItem(page, 'write beta').getByTestId('session-waiting').count()).toBe(1)

    // Then the second: answered from the keyboard (focus is on the card's Deny).
    await sessionItem(page, 'write beta').getByTestId('session-link').click()
    const beta = page.getByTestId('permission-card')
    await expect.poll(() => beta.getByTestId('file-preview-path').textContent()).toContain('beta.txt')
    await beta.getByTestId('permission-deny').focus()
    await page.keyboard.press('n')
    await beta.waitFor({ state: 'detached' })
    await expect.poll(() => sessionItem(page, 'write beta').getByTestId('session-waiting').count()).toBe(0)
    await expect
      .poll(() => page.getByTestId('assistant-message').last().getByTestId('markdown').last().textContent())
      .toContain('User denied')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('shows the write as a diff against the current file and the edit as a diff, before approval', async () => {
    writeFileSync(join(outside, 'existing.ts'), 'export const version = 1\n')
    const { page, errors } = await openStubbed()
    await sendFromInput(page, 'replace existing')
    const card = page.getByTestId('permission-card')
    await card.waitFor({ timeout: 15_000 })
    const diff = card.getByTestId('tool-diff')
    await expect.poll(() => diff.textContent()).toContain('export const version = 2')
    expect(await diff.textContent()).toContain('export const version = 1')
    await card.getByTestId('file-preview-content-tab').click()
    expect(await card.getByTestId('file-preview-content').textContent()).toBe('export const version = 2\n')
    expect(await card.locator('.hljs-keyword').first().textContent()).toBe('export')
    await page.screenshot({ path: artifactPath('approval-write-preview.png') })
    expect(await seriousA11yViolations(page)).toEqual([])
    await card.getByTestId('permission-deny').click()
    await card.waitFor({ state: 'detached' })

    await page.getByTestId('new-chat').click()
    await sendFromInput(page, 'edit existing')
    const edit = page.getByTestId('permission-card')
    await edit.waitFor({ timeout: 15_000 })
    expect(await edit.getByTestId('file-preview').getAttribute('data-view')).toBe('edit')
    // The diff view loads just after the chat: its text comes a moment after the card.
    const editDiff = edit.getByTestId('tool-diff')
    await expect.poll(() => editDiff.textContent()).toContain('version = 100')
    // The old line removed, the new one added (each line starts with its - or + mark).
    expect(await editDiff.textContent()).toBe('-version = 1+version = 100')
    await page.screenshot({ path: artifactPath('approval-edit-preview.png') })
    expect(await seriousA11yViolations(page)).toEqual([])
    await edit.getByTestId('permission-deny').click()
    expect(readFileSync(join(outside, 'existing.ts'), 'utf8')).toBe('export const version = 1\n')
    expect(errors).toEqual([])
    await page.context().close()
  })
})
