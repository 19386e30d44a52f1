import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { sessionsList } from '@shared/contracts/routes/sessions.routes'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  type ChatHost,
  lastUserText,
  openChat,
  sendFromInput,
  seriousA11yViolations,
  startChatHost,
  textReply
} from './helpers/chatHost'

let chat: ChatHost
let browser: Browser

beforeAll(async () => {
  chat = await startChatHost((request) => {
    return textReply(`Echo: ${lastUserText(request.body)}`)
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

describe('sessions sidebar', () => {
  it('renames, pins first, and deletes only after confirming; zh-CN renders', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    for (const text of ['alpha topic', 'beta topic']) {
      await page.getByTestId('new-chat').click()
      await sendFromInput(page, text)
      await expect
        .poll(() => page.getByTestId('assistant-message').last().getAttribute('data-status'), {
          timeout: 15_000
        })
        .toBe('sent')
    }
    const titles = () => page.getByTestId('session-item').getByTestId('session-link').allTextContents()
    await expect
      .poll(async () => (await titles()).map((t) => t.trim()))
      .toEqual(['beta topic', 'alpha topic'])

    // Rename through the inline field.
    const alpha = page.getByTestId('session-item').filter({ hasText: 'alpha topic' })
    await alpha.hover()
    await alpha.getByTestId('session-rename').click()
    await page.getByTestId('session-rename-input').fill('Renamed alpha')
    await page.getByTestId('session-rename-input').press('Enter')
    await expect.poll(async () => (await titles()).map((t) => t.trim())).toContain('Renamed alpha')

    // Pinning moves it to the Pinned group at the top.
    const renamed = page.getByTestId('session-item').filter({ hasText: 'Renamed alpha' })
    await renamed.hover()
    await renamed.getByTestId('session-pin').click()
    await page.getByTestId('session-group-pinned').waitFor()
    expect((await page.getByTestId('session-group-pinned').textContent())?.includes('Renamed alpha')).toBe(
      true
    )
    await expect
      .poll(async () => (await titles()).map((t) => t.trim()))
      .toEqual(['Renamed alpha', 'beta topic'])

    // Delete asks first; Cancel keeps it, confirming removes it everywhere.
    const beta = page.getByTestId('session-item').filter({ hasText: 'beta topic' })
    await beta.hover()
    await beta.getByTestId('session-delete').click()
    await page.getByTestId('confirm-dialog').waitFor()
    await page.getByTestId('confirm-cancel').click()
    expect(await page.getByTestId('session-item').count()).toBe(2)
    await beta.hover()
    await beta.getByTestId('session-delete').click()
    await page.getByTestId('confirm-ok').click()
    await expect.poll(() => page.getByTestId('session-item').count()).toBe(1)
    const stored = await chat.bridge.call(sessionsList, {})
    expect(stored.sessions.map((s) => [s.title, s.pinned])).toEqual([['Renamed alpha', true]])

    // The chat in Chinese, dark.
    await chat.bridge.call(configUpdateSettings, { patch: { language: 'zh-CN', theme: 'dark' } })
    await page.getByTestId('session-item').getByTestId('session-link').click()
    await expect.poll(() => page.getByTestId('send-button').textContent()).toBe('发送')
    expect(await page.getByTestId('session-group-pinned').textContent()).toContain('已置顶')
    await page.screenshot({ path: artifactPath('chat-zh-dark.png') })
    expect(await seriousA11yViolations(page)).toEqual([])
    await chat.bridge.call(configUpdateSettings, { patch: { language: 'en-US', theme: 'light' } })
    expect(errors).toEqual([])
    await page.close()
  })
})
