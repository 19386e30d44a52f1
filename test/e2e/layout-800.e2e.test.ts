import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import type { FakeResponse } from '../fixtures/llm/fakeLlm'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  callsReply,
  seriousA11yViolations,
  sendFromInput,
  startChatHost,
  textReply,
  toolCall,
  type ChatHost
} from './helpers/chatHost'
import { gotoSection } from './settings-helpers'
import { openAiBody, type OpenAiRequest } from '../fixtures/llm/openAiRequest'

let chat: ChatHost
let browser: Browser
let outside: string

function reply(body: OpenAiRequest): FakeResponse {
  const last = body.messages.at(-1)!
  if (last.role === 'tool') return textReply('done')
  return callsReply(toolCall('w1', 'write', { path: join(outside, 'small.txt'), content: 'a line\n' }))
}

/** Nothing sticks out sideways: the page cannot scroll horizontally. */
async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
}

async function open800(): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 800, height: 600 }, bypassCSP: true })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  await page.goto(chat.host.url)
  await page.getByTestId('chat-input-text').waitFor()
  return { page, errors }
}

beforeAll(async () => {
  chat = await startChatHost((request) => reply(openAiBody(request.body)))
  outside = chat.outsideDir()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

describe('every page at 800×600', () => {
  it('starts with the sidebar collapsed, expands and collapses it; a card fits the chat', async () => {
    const { page, errors } = await open800()
    const sidebar = page.getByTestId('sidebar')
    expect(await sidebar.getAttribute('data-collapsed')).toBe('true')
    await sendFromInput(page, 'write please')
    const card = page.getByTestId('permission-card')
    await card.waitFor({ timeout: 15_000 })
    const box = await card.boundingBox()
    expect(box!.x + box!.width).toBeLessThanOrEqual(800)
    expect(await horizontalOverflow(page)).toBe(0)
    await page.screenshot({ path: artifactPath('800-chat-card-collapsed.png') })
    expect(await seriousA11yViolations(page)).toEqual([])

    await page.getByTestId('sidebar-toggle').click()
    expect(await sidebar.getAttribute('data-collapsed')).toBe('false')
    expect(await page.getByTestId('session-title').first().getAttribute('title')).toBe('write please')
    expect(await horizontalOverflow(page)).toBe(0)
    expect((await card.boundingBox())!.width).toBeGreaterThan(400)
    await page.screenshot({ path: artifactPath('800-chat-card-expanded.png') })
    // The choice is remembered across a reload.
    await page.reload()
    await page.getByTestId('permission-card').waitFor({ timeout: 15_000 })
    expect(await page.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('false')
    await page.getByTestId('permission-deny').click()

    // The delete dialog fits too.
    await page.getByTestId('session-item').first().hover()
    await page.getByTestId('session-delete').first().click()
    await page.getByRole('dialog').waitFor()
    const dialog = (await page.getByRole('dialog').boundingBox())!
    expect(dialog.x).toBeGreaterThanOrEqual(0)
    expect(dialog.x + dialog.width).toBeLessThanOrEqual(800)
    await page.screenshot({ path: artifactPath('800-dialog-delete.png') })
    await page.keyboard.press('Escape')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('opens the Tools popover inside the window when the button wraps to the left', async () => {
    const { page, errors } = await open800()
    await sendFromInput(page, 'write please')
    await page.getByTestId('permission-deny').click()
    const button = page.getByTestId('tools-button')
    // In an open chat at 800 px the composer wraps the button to its left edge: right-aligned,
    // the popover fell off the window's left side.
    await expect.poll(async () => (await button.boundingBox())!.x).toBeLessThan(400)
    await button.click()
    const popover = (await page.getByTestId('tools-popover').boundingBox())!
    expect(popover.x).toBeGreaterThanOrEqual(0)
    expect(popover.x + popover.width).toBeLessThanOrEqual(800)
    await page.screenshot({ path: artifactPath('800-tools-popover.png') })
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('stacks the settings columns: each section is usable and Model providers keeps a wide detail', async () => {
    const { page, errors } = await open800()
    await page.getByTestId('nav-settings').click()
    for (const section of [
      'general',
      'providers',
      'mcp',
      'permissions',
      'agents',
      'agent-tools',
      'skills',
      'memory',
      'image',
      'about'
    ]) {
      await gotoSection(page, section)
      const content = (await page.getByTestId(`settings-${section}`).boundingBox())!
      expect(content.width, section).toBeGreaterThan(500)
      expect(await horizontalOverflow(page), section).toBe(0)
      await page.screenshot({ path: artifactPath(`800-settings-${section}.png`) })
    }
    await gotoSection(page, 'providers')
    const detail = (await page.getByTestId('provider-detail').boundingBox())!
    expect(detail.width).toBeGreaterThan(500)
    await page.getByTestId('provider-add').click()
    await page.getByTestId('provider-add-dialog').waitFor()
    const dialog = (await page.getByTestId('provider-add-dialog').boundingBox())!
    expect(dialog.x).toBeGreaterThanOrEqual(0)
    expect(dialog.x + dialog.width).toBeLessThanOrEqual(800)
    await page.screenshot({ path: artifactPath('800-dialog-add-provider.png') })
    expect(errors).toEqual([])
    await page.context().close()
  })
})
