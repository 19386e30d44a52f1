import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
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

let chat: ChatHost
let browser: Browser
let answers = 0

beforeAll(async () => {
  chat = await startChatHost((request) =>
    textReply(`Answer number ${++answers} to ${lastUserText(request.body)}`)
  )
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

describe('message variants and delete in the browser', () => {
  it('Retry adds 2/2, ‹ shows the old answer (kept after a reload), Delete offers Undo', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    await sendFromInput(page, 'name a colour')
    const answer = () => page.getByTestId('assistant-message').last()
    await expect.poll(() => answer().getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    expect(await answer().textContent()).toContain('Answer number 1')
    expect(await page.getByTestId('variant-switch').count()).toBe(0)

    await answer().getByTestId('message-retry').click()
    await expect
      .poll(
        () =>
          answer()
            .getByTestId('variant-position')
            .textContent()
            .catch(() => null),
        { timeout: 15_000 }
      )
      .toBe('2/2')
    await expect.poll(() => answer().getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    expect(await answer().getByTestId('markdown').textContent()).toContain('Answer number 2')
    expect(await page.getByTestId('assistant-message').count()).toBe(1)
    await settled(page)
    await page.screenshot({ path: artifactPath('variants-2-of-2.png') })

    await answer().getByTestId('variant-previous').click()
    await expect.poll(() => answer().getByTestId('variant-position').textContent()).toBe('1/2')
    expect(await answer().getByTestId('markdown').textContent()).toContain('Answer number 1')
    await page.reload()
    await page.getByTestId('chat-input-text').waitFor()
    await expect
      .poll(() => answer().getByTestId('variant-position').textContent(), { timeout: 15_000 })
      .toBe('1/2')
    expect(await answer().getByTestId('markdown').textContent()).toContain('Answer number 1')

    // The next question continues the answer shown.
    await sendFromInput(page, 'and another')
    await expect.poll(() => page.getByTestId('assistant-message').count(), { timeout: 15_000 }).toBe(2)
    await expect.poll(() => answer().getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    const request = JSON.stringify(chat.llm.generationRequests().at(-1)!.body)
    expect(request).toContain('Answer number 1')
    expect(request).not.toContain('Answer number 2')

    await page.getByTestId('user-message').last().getByTestId('message-delete').click()
    await page.getByTestId('undo-delete-toast').waitFor()
    await expect.poll(() => page.getByTestId('user-message').count()).toBe(1)
    await expect.poll(() => page.getByTestId('assistant-message').count()).toBe(1)
    await settled(page)
    await page.screenshot({ path: artifactPath('variants-undo-delete.png') })
    await page.getByTestId('undo-delete').click()
    await expect.poll(() => page.getByTestId('user-message').count()).toBe(2)
    expect(await page.getByTestId('undo-delete-toast').count()).toBe(0)
    expect(errors).toEqual([])
    await page.close()
  })
})
