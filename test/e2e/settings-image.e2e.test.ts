import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  openChat,
  seriousA11yViolations,
  sendFromInput,
  startChatHost,
  textReply,
  type ChatHost
} from './helpers/chatHost'
import { openAiBody } from '../fixtures/llm/openAiRequest'

let chat: ChatHost
let browser: Browser

beforeAll(async () => {
  chat = await startChatHost(() => textReply('ok'))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

/** The tool names offered in the chat request for `text` (title requests carry no tools). */
function toolsFor(text: string): string[] | null {
  const request = chat.llm
    .generationRequests()
    .map((r) => openAiBody(r.body))
    .find(
      (body) =>
        Array.isArray(body.tools) && body.messages.some((m) => m.role === 'user' && m.content === text)
    )
  return request ? (request.tools ?? []).map((t) => t.function.name) : null
}

describe('Settings › Image generation', () => {
  it('choosing an image model makes image_generate appear in the provider request; Off removes it', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    await sendFromInput(page, 'before')
    await expect.poll(() => toolsFor('before'), { timeout: 15_000 }).not.toBeNull()
    expect(toolsFor('before')).not.toContain('image_generate')

    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-nav-image').click()
    const select = page.getByTestId('image-model')
    // The fake's model has no image model's name: it is listed only on asking for all models.
    expect(await select.locator('option').allTextContents()).not.toContain('Fake OpenAI · Fake model')
    await page.getByTestId('image-show-all').check()
    await select.selectOption({ label: 'Fake OpenAI · Fake model' })
    await expect.poll(() => page.getByTestId('image-status').textContent()).toContain('can now generate')
    await page.screenshot({ path: artifactPath('settings-image.png') })
    expect(await seriousA11yViolations(page)).toEqual([])

    await page.getByTestId('new-chat').click()
    await sendFromInput(page, 'after')
    await expect.poll(() => toolsFor('after'), { timeout: 15_000 }).not.toBeNull()
    expect(toolsFor('after')).toContain('image_generate')

    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-nav-image').click()
    await page.getByTestId('image-model').selectOption('')
    await expect.poll(() => page.getByTestId('image-status').textContent()).toContain('off')
    await page.getByTestId('new-chat').click()
    await sendFromInput(page, 'off again')
    await expect.poll(() => toolsFor('off again'), { timeout: 15_000 }).not.toBeNull()
    expect(toolsFor('off again')).not.toContain('image_generate')
    expect(errors).toEqual([])
    await page.close()
  })
})
