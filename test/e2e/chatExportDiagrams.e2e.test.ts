import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { artifactPath, launchBrowser } from './helpers/browser'
import { type ChatHost, openChat, sendFromInput, startChatHost, textReply } from './helpers/chatHost'

let chat: ChatHost
let browser: Browser

const ANSWER =
  'A flow:\n\n```mermaid\ngraph TD\n  Start --> Check{Ready?}\n  Check -->|yes| Ship\n  Check -->|no| Fix\n```\n\n' +
  'Area: $\\pi r^2$\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n> quoted'

beforeAll(async () => {
  chat = await startChatHost(() => textReply(ANSWER))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

describe('HTML export with a diagram', () => {
  it('the saved page holds the drawn diagram (and its source), math as MathML, and loads nothing', async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'draw a flow')
    const answer = page.getByTestId('assistant-message').last()
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    await page.getByTestId('chat-export').click()
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('chat-export-html').click()
    ])
    const path = join(chat.dataDir, 'export.html')
    await download.saveAs(path)
    const html = readFileSync(path, 'utf8')
    expect(html).toMatch(
      /<figure class="diagram" data-diagram="mermaid"><figcaption>Mermaid diagram<\/figcaption><svg/
    )
    expect(html).toContain('Ship')
    expect(html).toContain('<details><summary>Source</summary>')
    expect(html).toMatch(/<math[^>]*>/)
    expect(html).toContain(`default-src 'none'`)
    expect(html).not.toMatch(/<script/i)

    // Opened as a file, the page draws without asking for anything.
    const viewer = await browser.newPage({ viewport: { width: 1000, height: 800 } })
    const requests: string[] = []
    viewer.on('request', (r) => requests.push(r.url()))
    const copy = join(chat.dataDir, 'viewed.html')
    writeFileSync(copy, html)
    await viewer.goto(`file://${copy}`)
    const box = await viewer.locator('figure svg').boundingBox()
    expect(box?.height ?? 0).toBeGreaterThan(100)
    expect(requests.filter((url) => !url.startsWith('file://') && !url.startsWith('data:'))).toEqual([])
    await viewer.screenshot({ path: artifactPath('export-html-diagram.png'), fullPage: true })
    await viewer.close()
    await page.close()
  })
})
