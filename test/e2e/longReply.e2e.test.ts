import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Browser, Locator, Page } from 'playwright-core'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  lastUserText,
  openChat,
  sendFromInput,
  startChatHost,
  textReply,
  type ChatHost
} from './helpers/chatHost'

// Each paragraph is one finished markdown chunk (the last one stays the tail); 32 chunks make a
// page, so this reply has 40 full pages, each about a thousand pixels tall at this width.
const PARAGRAPHS = 1300
const FULL_PAGES = 40
const paragraph = (i: number) =>
  `Paragraph ${i}: a sentence long enough to wrap once or twice in the chat column.`
const longReply = Array.from({ length: PARAGRAPHS }, (_, i) => paragraph(i)).join('\n\n')
// A code block and a list far longer than the pieces they are split into (40 and 60 lines).
const codeLines = Array.from({ length: 100 }, (_, i) => `const value${i} = ${i} // line ${i}`)
const listItems = Array.from({ length: 130 }, (_, i) => `${i + 1}. item number ${i + 1}`)
const codeAndList = [
  'Code:',
  '',
  '```ts',
  ...codeLines,
  '```',
  '',
  'List:',
  '',
  ...listItems,
  '',
  'Done.'
].join('\n')

let chat: ChatHost
let browser: Browser
let page: Page
let errors: string[]

beforeAll(async () => {
  chat = await startChatHost((request) =>
    textReply(lastUserText(request.body).includes('code') ? codeAndList : longReply)
  )
  browser = await launchBrowser()
  ;({ page, errors } = await openChat(browser, chat.host))
})
afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

const list = () => page.getByTestId('message-list')
const scrollHeight = () => list().evaluate((el) => el.scrollHeight)
const renderedChunks = (answer: Locator) => answer.locator('.md-chunk').count()
const farPages = (answer: Locator) => answer.locator('[data-far]').count()

describe('a very long reply', () => {
  it('keeps only the pages near the viewport in the DOM, and brings back the start when scrolled to', async () => {
    await sendFromInput(page, 'write a very long answer')
    const answer = page.locator('[data-testid="assistant-message"][data-status="sent"]').last()
    await answer.waitFor({ timeout: 60_000 })
    await answer.getByText(paragraph(PARAGRAPHS - 1)).waitFor()

    // At the bottom, the pages more than a few screens up are boxes of their height.
    await expect.poll(() => farPages(answer)).toBeGreaterThanOrEqual(FULL_PAGES - 8)
    expect(await renderedChunks(answer)).toBeLessThanOrEqual(8 * 32 + 19)
    expect(await answer.getByText(paragraph(0), { exact: true }).count()).toBe(0)
    const height = await scrollHeight()

    // Scrolled to the top (as a user does: the list stops following the stream), the first
    // page is back, the last full one is far, and the list kept its height to the pixel.
    await list().focus()
    await page.keyboard.press('Home')
    await answer.getByText(paragraph(0), { exact: true }).waitFor()
    expect(await answer.locator('[data-page="0"]').getAttribute('data-far')).toBeNull()
    expect(await answer.locator(`[data-page="${FULL_PAGES - 1}"]`).getAttribute('data-far')).not.toBeNull()
    expect(Math.abs((await scrollHeight()) - height)).toBeLessThanOrEqual(2)
    // A page boundary (paragraphs 31 | 32) is spaced like any other paragraph break.
    const tops = await answer.evaluate((el) =>
      [30, 31, 32].map(
        (i) =>
          [...el.querySelectorAll('p')]
            .find((p) => p.textContent!.startsWith(`Paragraph ${i}:`))!
            .getBoundingClientRect().top
      )
    )
    expect(tops[2] - tops[1]).toBeCloseTo(tops[1] - tops[0], 0)
    await page.screenshot({ path: artifactPath('long-reply-top.png') })

    // Scrolled to the middle, the pages there are rendered again.
    await list().evaluate((el) => (el.scrollTop = el.scrollHeight / 2))
    await answer.getByText(paragraph(700), { exact: true }).waitFor()
    expect(errors).toEqual([])
  })

  it('does the same for a long reply opened from history', async () => {
    await page.reload()
    const answer = page.locator('[data-testid="assistant-message"][data-status="sent"]').last()
    await answer.getByText(paragraph(PARAGRAPHS - 1)).waitFor()
    await expect.poll(() => farPages(answer)).toBeGreaterThanOrEqual(FULL_PAGES - 8)
    expect(await renderedChunks(answer)).toBeLessThanOrEqual(8 * 32 + 19)
    await page.screenshot({ path: artifactPath('long-reply-bottom.png') })
  })
  it('shows a long code block and a long list as one block each, split where the eye cannot see', async () => {
    await page.getByTestId('new-chat').click()
    await sendFromInput(page, 'show code and a list')
    const answer = page.locator('[data-testid="assistant-message"][data-status="sent"]').last()
    await answer.getByText('Done.').waitFor()
    const codeBoxes = answer.locator('.md-code')
    expect(await codeBoxes.count()).toBe(3)
    // One header (language and copy) for the whole block, and no gap at the seams.
    expect(await answer.locator('.md-code-head:visible').count()).toBe(1)
    const rects = await codeBoxes.evaluateAll((boxes) => boxes.map((b) => b.getBoundingClientRect()))
    for (let i = 1; i < rects.length; i++) expect(rects[i].top).toBeCloseTo(rects[i - 1].bottom, 0)
    const lines = await answer
      .locator('.md-code pre')
      .evaluateAll((pres) => pres.flatMap((pre) => pre.textContent!.split('\n').filter(Boolean)))
    expect(lines).toEqual(codeLines)
    // The numbered list keeps counting across its pieces.
    expect(await answer.locator('ol').count()).toBe(3)
    expect(await answer.locator('ol').nth(1).getAttribute('start')).toBe('61')
    const items = await answer
      .locator('ol')
      .evaluateAll((lists) => lists.map((list) => list.getBoundingClientRect()))
    for (let i = 1; i < items.length; i++) expect(items[i].top).toBeCloseTo(items[i - 1].bottom, 0)
    // To the first seam, scrolling as a user does (else the list keeps following the reply).
    // Home then one wheel, again until the seam shows: on a loaded machine the first wheel can
    // land while the list is still settling at the end of the reply.
    await vi.waitFor(
      async () => {
        await list().focus()
        await page.keyboard.press('Home')
        await page.mouse.move(700, 400)
        await page.mouse.wheel(0, rects[1].top - rects[0].top)
        await expect
          .poll(() => codeBoxes.nth(1).evaluate((box) => box.getBoundingClientRect().top), { timeout: 3_000 })
          .toBeLessThan(600)
      },
      { timeout: 20_000, interval: 100 }
    )
    await page.screenshot({ path: artifactPath('long-code-seam.png') })
  })
})
