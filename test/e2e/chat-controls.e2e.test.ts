import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { sessionsGet } from '@shared/contracts/routes/sessions.routes'
import type { FakeResponse } from '../fixtures/llm/fakeLlm'
import { artifactPath, launchBrowser } from './helpers/browser'
import { settled } from './settings-helpers'
import {
  type ChatHost,
  lastUserText,
  openChat,
  sendFromInput,
  startChatHost,
  textReply
} from './helpers/chatHost'
import { openAiBody, type OpenAiRequest } from '../fixtures/llm/openAiRequest'

let chat: ChatHost
let browser: Browser
let answers = 0
let failedOnce = false

function reply(body: OpenAiRequest): FakeResponse {
  const text = lastUserText(body)
  if (text.includes('many lines')) {
    // About 8 s of steady output, tall enough to scroll.
    const steps: FakeResponse = { steps: [] }
    for (let i = 0; i < 160; i++)
      steps.steps.push({ type: 'text', text: [`Line ${i} of a long answer.\n\n`] }, { type: 'delay', ms: 50 })
    return steps
  }
  if (text.includes('fail once') && !failedOnce) {
    failedOnce = true
    return { status: 500, message: 'upstream exploded' }
  }
  answers++
  return textReply(`Answer number ${answers} to ${text}`)
}

beforeAll(async () => {
  chat = await startChatHost((request) => reply(openAiBody(request.body)))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

describe('chat controls', () => {
  it('follows the stream, stops following when scrolled up, and jumps back', async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'many lines please')
    const list = page.getByTestId('message-list')
    const gap = () => list.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)
    // While following, the bottom stays in view as lines arrive.
    await expect
      .poll(() => list.evaluate((el) => el.scrollHeight > el.clientHeight * 2), { timeout: 15_000 })
      .toBe(true)
    expect(await gap()).toBeLessThan(200) // at most the batch that just arrived
    // Scrolled up: the position holds while the answer keeps growing.
    await list.hover()
    await page.mouse.wheel(0, -600)
    await page.getByTestId('jump-to-latest').waitFor()
    const held = await list.evaluate((el) => el.scrollTop)
    const heightBefore = await list.evaluate((el) => el.scrollHeight)
    await expect
      .poll(() => list.evaluate((el) => el.scrollHeight), { timeout: 10_000 })
      .toBeGreaterThan(heightBefore + 100)
    expect(Math.abs((await list.evaluate((el) => el.scrollTop)) - held)).toBeLessThan(5)
    await page.getByTestId('jump-to-latest').click()
    await expect.poll(gap).toBeLessThan(200)
    await page.getByTestId('stop-button').click()
    await page.getByTestId('send-button').waitFor()
    await page.close()
  })

  it('shows a provider failure as an error block whose Retry gets a new answer', async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'please fail once')
    const failed = page.getByTestId('assistant-message').last()
    await expect.poll(() => failed.getAttribute('data-status'), { timeout: 15_000 }).toBe('error')
    const error = failed.getByTestId('error-block')
    expect(await error.textContent()).toContain('upstream exploded')
    await error.getByTestId('error-retry').click()
    await expect
      .poll(() => page.getByTestId('assistant-message').last().textContent(), { timeout: 15_000 })
      .toContain('Answer number')
    expect(await page.getByTestId('error-block').count()).toBe(0)
    await page.close()
  })

  it('warns about full access, lists tools, retries an answer and forks a chat', async () => {
    const { page } = await openChat(browser, chat.host)
    await page.getByTestId('permission-mode-picker').selectOption('full_access')
    await page.getByTestId('full-access-warning').waitFor()
    await page.getByTestId('permission-mode-picker').selectOption('default')
    expect(await page.getByTestId('full-access-warning').count()).toBe(0)
    await page.getByTestId('tools-button').click()
    const popover = page.getByTestId('tools-popover')
    await popover.getByTestId('tool-toggle-write').waitFor()
    expect(await popover.getByTestId('tool-toggle-write').isChecked()).toBe(true)
    // No new chat gets a diagnostic tool, whatever its app-wide switch says: the row says so.
    expect(await popover.getByTestId('tool-blocked-tape_info').textContent()).toContain(
      'switch it on in a chat'
    )
    await settled(page)
    await page.screenshot({ path: artifactPath('tools-popover-new-chat.png') })
    await page.getByTestId('tools-button').click()

    await sendFromInput(page, 'hello there')
    const answer = page.getByTestId('assistant-message').last()
    await expect.poll(() => answer.textContent(), { timeout: 15_000 }).toContain('Answer number')
    const first = await answer.getByTestId('markdown').textContent()
    await answer.getByTestId('message-retry').click()
    await expect
      .poll(async () => page.getByTestId('assistant-message').last().getByTestId('markdown').textContent(), {
        timeout: 15_000
      })
      .not.toBe(first)
    expect(await page.getByTestId('assistant-message').count()).toBe(1) // the old answer left the list
    const original = page.url()
    await expect
      .poll(() => page.getByTestId('assistant-message').last().getAttribute('data-status'))
      .toBe('sent')
    await page.getByTestId('assistant-message').last().getByTestId('message-fork').click()
    await expect.poll(() => page.url()).not.toBe(original)
    const forkedId = page.url().split('/chat/')[1]
    const { session } = await chat.bridge.call(sessionsGet, { sessionId: forkedId })
    expect(session.id).toBe(forkedId)
    await expect.poll(() => page.getByTestId('user-text').allTextContents()).toEqual(['hello there'])
    await page.close()
  })
})
