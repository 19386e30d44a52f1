import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { artifactPath, launchBrowser } from './helpers/browser'
import { lastUserText, sendFromInput, startChatHost, textReply, type ChatHost } from './helpers/chatHost'
import { settled } from './helpers/settled'

const HEADERS = Array.from({ length: 14 }, (_, i) => `Column${i + 1}`)
const wideTable = [
  `| ${HEADERS.join(' | ')} |`,
  `| ${HEADERS.map(() => '---').join(' | ')} |`,
  ...[1, 2, 3].map(
    (row) =>
      `| ${HEADERS.map((_, i) =>
        i === 1
          ? 'a long description that goes on for several words and has to wrap at the spaces between them'
          : `value${row}x${i}`
      ).join(' | ')} |`
  )
].join('\n')

// A reply long enough that its first pages leave the DOM (MarkdownView's far pages).
const longReply = Array.from({ length: 700 }, (_, i) =>
  i === 3
    ? 'Paragraph three hides the word needle early on.'
    : i === 690
      ? 'Near the end the needle shows again.'
      : `Paragraph ${i} is filler text about nothing in particular.`
).join('\n\n')

const diagram = ['Here is a chart:', '', '```mermaid', 'graph TD', '  Start --> Finish', '```'].join('\n')

let chat: ChatHost
let browser: Browser

beforeAll(async () => {
  chat = await startChatHost((request) => {
    const asked = lastUserText(request.body)
    if (asked.includes('table')) return textReply(`Here it is:\n\n${wideTable}\n\nDone.`)
    if (asked.includes('long')) return { steps: [{ type: 'text' as const, text: [longReply] }] }
    if (asked.includes('chart')) return textReply(diagram)
    return textReply('ok')
  })
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

async function open(width: number, height: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } })
  await page.goto(chat.host.url)
  await page.getByTestId('chat-input-text').waitFor()
  return page
}

/** Words split across lines inside table cells (a word drawn as more than one line box). */
async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = []
    for (const cell of document.querySelectorAll('.md-table td, .md-table th')) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        for (const match of node.data.matchAll(/\S+/g)) {
          const range = document.createRange()
          range.setStart(node, match.index)
          range.setEnd(node, match.index + match[0].length)
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)))
          if (lines.size > 1) broken.push(match[0])
        }
      }
    }
    return broken
  })
}

describe('the chat window', () => {
  it.each([
    [1280, 800],
    [800, 600]
  ])('scrolls a 14-column table sideways in its box and never breaks a word (%ix%i)', async (w, h) => {
    const page = await open(w, h)
    await sendFromInput(page, 'a wide table please')
    const table = page.locator('.md-table').last()
    await table.waitFor({ timeout: 15_000 })
    await expect
      .poll(() => page.getByTestId('assistant-message').last().getAttribute('data-status'), {
        timeout: 15_000
      })
      .toBe('sent')
    await settled(page)
    const box = await table.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }))
    expect(box.scroll).toBeGreaterThan(box.client)
    expect(await brokenWords(page)).toEqual([])
    // The long cell wraps at its spaces (more than one line), the page itself never scrolls sideways.
    const longCell = page.locator('.md-table td').nth(1)
    const lineHeight = await longCell.evaluate((el) => parseFloat(getComputedStyle(el).lineHeight))
    expect((await longCell.boundingBox())!.height).toBeGreaterThan(lineHeight * 1.5)
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    ).toBeLessThanOrEqual(0)
    await page.screenshot({ path: artifactPath(`wide-table-${w}x${h}.png`) })
    await table.evaluate((el) => (el.scrollLeft = el.scrollWidth))
    await page.screenshot({ path: artifactPath(`wide-table-${w}x${h}-scrolled.png`) })
    await page.close()
  })

  it("keeps each chat's draft and the new chat's apart, across a reload", async () => {
    const page = await open(1280, 800)
    await sendFromInput(page, 'hello drafts')
    await expect.poll(() => page.url()).toContain('/chat/')
    const chatUrl = page.url()
    const box = page.getByTestId('chat-input-text')
    await expect.poll(() => box.inputValue()).toBe('')
    await box.fill('half a thought for this chat')
    await page.goto(chat.host.url) // New chat
    await expect.poll(() => box.inputValue()).toBe('')
    await box.fill('a new chat about cats')
    await page.goto(chatUrl)
    await expect.poll(() => box.inputValue()).toBe('half a thought for this chat')
    await page.reload()
    await expect.poll(() => box.inputValue(), { timeout: 10_000 }).toBe('half a thought for this chat')
    await page.goto(chat.host.url)
    await expect.poll(() => box.inputValue(), { timeout: 10_000 }).toBe('a new chat about cats')
    await page.close()
  })

  it('gives a sidebar title the whole row until its buttons show', async () => {
    const page = await open(1280, 800)
    await sendFromInput(page, 'a title that is rather long for the sidebar row width')
    const item = page.getByTestId('session-item').first()
    await item.waitFor()
    await page.getByTestId('chat-input-text').focus()
    await page.mouse.move(900, 400)
    const title = page.getByTestId('session-title').first()
    await expect.poll(() => title.textContent(), { timeout: 15_000 }).toContain('a title that is rather long')
    const link = page.getByTestId('session-link').first()
    const free = async () => {
      const [t, l] = [(await title.boundingBox())!, (await link.boundingBox())!]
      return l.x + l.width - (t.x + t.width)
    }
    // Not hovered: only the row's own padding (8 px) is left beside the cut title.
    expect(await free()).toBeLessThanOrEqual(12)
    await page.screenshot({
      path: artifactPath('sidebar-title-full-width.png'),
      clip: { x: 0, y: 0, width: 320, height: 200 }
    })
    await item.hover()
    await page.getByTestId('session-delete').first().waitFor()
    expect(await free()).toBeGreaterThanOrEqual(70) // room for the three buttons
    await page.screenshot({
      path: artifactPath('sidebar-title-hover.png'),
      clip: { x: 0, y: 0, width: 320, height: 200 }
    })
    await page.close()
  })

  it('finds a word in far pages of a long reply, brings the page back and highlights it', async () => {
    const page = await open(1280, 800)
    await sendFromInput(page, 'a long reply please')
    const answer = page.getByTestId('assistant-message').last()
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 30_000 }).toBe('sent')
    await expect.poll(() => answer.locator('[data-far]').count(), { timeout: 10_000 }).toBeGreaterThan(0)

    await page.keyboard.press('Control+f')
    const input = page.getByTestId('find-input')
    await input.waitFor()
    await input.fill('NEEDLE')
    const status = page.getByTestId('find-status')
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('2 of 2')
    await input.press('Enter') // wraps to the first hit, in a page that had left the DOM
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('1 of 2')
    const current = async () =>
      page.evaluate(() => {
        const highlight = CSS.highlights.get('find-current')
        const range = highlight ? ([...highlight][0] as Range | undefined) : undefined
        const list = document.querySelector('[data-testid="message-list"]')!.getBoundingClientRect()
        if (!range) return null
        const rect = range.getBoundingClientRect()
        return { text: range.toString(), inView: rect.top >= list.top && rect.bottom <= list.bottom }
      })
    await expect.poll(current, { timeout: 10_000 }).toEqual({ text: 'needle', inView: true })
    expect(await page.evaluate(() => CSS.highlights.get('find-hit')?.size ?? 0)).toBeGreaterThanOrEqual(1)
    await settled(page)
    await page.screenshot({ path: artifactPath('find-in-chat.png') })
    await input.press('Shift+Enter')
    await expect.poll(() => status.textContent()).toBe('2 of 2')
    await expect.poll(async () => (await current())?.inView, { timeout: 10_000 }).toBe(true)
    await input.press('Escape')
    await expect.poll(() => page.getByTestId('find-bar').count()).toBe(0)
    expect(await page.evaluate(() => CSS.highlights.has('find-hit'))).toBe(false)
    await page.close()
  })

  it('draws a Mermaid diagram again when the page switches to dark', async () => {
    const page = await open(1280, 800)
    await sendFromInput(page, 'a chart please')
    const drawn = page.locator('[data-rich-done="mermaid"]').last()
    await drawn.waitFor({ timeout: 20_000 })
    const before = await drawn.getAttribute('data-theme')
    const dark = before === 'dark'
    const svgBefore = await drawn.innerHTML()
    // What the theme setting does: the root's class changes.
    await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), !dark)
    await expect
      .poll(() => page.locator('[data-rich-done="mermaid"]').last().getAttribute('data-theme'), {
        timeout: 10_000
      })
      .toBe(dark ? 'light' : 'dark')
    expect(await page.locator('[data-rich-done="mermaid"]').last().innerHTML()).not.toBe(svgBefore)
    await settled(page)
    await page.screenshot({ path: artifactPath('mermaid-theme-switch.png') })
    await page.close()
  })
})
