import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import type { FakeResponse } from '../fixtures/llm/fakeLlm'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  callsReply,
  type ChatHost,
  lastUserText,
  openChat,
  sendFromInput,
  seriousA11yViolations,
  startChatHost,
  textReply,
  toolCall
} from './helpers/chatHost'
import { openAiBody, type OpenAiRequest } from '../fixtures/llm/openAiRequest'

let chat: ChatHost
let browser: Browser

function reply(body: OpenAiRequest): FakeResponse {
  const last = body.messages.at(-1)!
  if (last.role === 'tool') return textReply(`Recalled: ${String(last.content).slice(0, 300)}`)
  const text = lastUserText(body)
  if (text === 'remember tea')
    return callsReply(toolCall('m1', 'memory_remember', { content: 'The user drinks tea every morning' }))
  if (text === 'recall coffee') return callsReply(toolCall('m2', 'memory_recall', { query: 'coffee' }))
  return textReply('ok')
}

beforeAll(async () => {
  chat = await startChatHost((request) => reply(openAiBody(request.body)))
  await chat.bridge.call(configUpdateSettings, { patch: { defaultPermissionMode: 'full_access' } })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

describe('Settings › Memory', () => {
  it('an edit on the Memory page reaches memory_recall in the next chat', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    await sendFromInput(page, 'remember tea')
    const answer = page.getByTestId('assistant-message').last()
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')

    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-nav-memory').click()
    const item = page.getByTestId('memory-item')
    await expect.poll(() => item.first().getByTestId('memory-content').textContent()).toContain('tea')
    await page.getByTestId('memory-search').fill('tea')
    await page.getByTestId('memory-search').press('Enter')
    await expect.poll(() => item.count()).toBe(1)
    await item.getByTestId('memory-edit').click()
    await item.getByTestId('memory-edit-input').fill('The user drinks coffee every morning')
    await item.getByTestId('memory-save').click()
    await expect.poll(() => page.getByTestId('memory-empty').count()).toBe(1) // "tea" no longer matches
    await page.getByTestId('memory-search').fill('')
    await page.getByTestId('memory-search').press('Enter')
    await expect.poll(() => item.first().getByTestId('memory-content').textContent()).toContain('coffee')
    await page.screenshot({ path: artifactPath('settings-memory.png') })
    expect(await seriousA11yViolations(page)).toEqual([])

    await page.getByTestId('new-chat').click()
    await sendFromInput(page, 'recall coffee')
    const recalled = page.getByTestId('assistant-message').last()
    await expect.poll(() => recalled.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    const toolMessage = openAiBody(chat.llm.generationRequests().at(-1)!.body).messages.at(-1)
    expect(toolMessage?.role).toBe('tool')
    expect(String(toolMessage?.content)).toContain('The user drinks coffee every morning')

    // Delete: the memory is gone from the page and from recall.
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-nav-memory').click()
    await page.getByTestId('memory-item').first().getByTestId('memory-delete').click()
    await expect.poll(() => page.getByTestId('memory-empty').count()).toBe(1)
    expect(errors).toEqual([])
    await page.close()
  })
})
