import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  lastUserText,
  openChat,
  sendFromInput,
  startChatHost,
  textReply,
  type ChatHost
} from './helpers/chatHost'

// A real listener the artifact's image points at: the frame must never reach it. (Whether the
// browser reports a request it then blocks by CSP depends on timing; a hit here does not.)
const pixelHits: string[] = []
const pixelServer: Server = createServer((request, response) => {
  pixelHits.push(request.url ?? '')
  response.end()
})

const richReply = (pixelUrl: string) =>
  [
    'Inline math $e^{i\\pi}+1=0$ and a block:',
    '',
    '$$',
    '\\sum_{k=1}^{n} k = \\frac{n(n+1)}{2}',
    '$$',
    '',
    'A broken formula $\\frac{1}{$ stays readable.',
    '',
    '```mermaid',
    'graph TD',
    '  Start --> Finish',
    '```',
    '',
    '```mermaid',
    'graph TD',
    '  this is -> not a diagram ((',
    '```',
    '',
    '```html',
    `<h1 id="art">Artifact</h1><img src="${pixelUrl}">`,
    '```',
    '',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '',
    'The end.'
  ].join('\n')

let chat: ChatHost
let browser: Browser
let page: Page
let errors: string[]

beforeAll(async () => {
  await new Promise<void>((resolve) => pixelServer.listen(0, '127.0.0.1', resolve))
  const pixelUrl = `http://127.0.0.1:${(pixelServer.address() as AddressInfo).port}/pixel.png`
  chat = await startChatHost((request) =>
    lastUserText(request.body).includes('rich') ? textReply(richReply(pixelUrl)) : textReply('plain answer')
  )
  browser = await launchBrowser()
  ;({ page, errors } = await openChat(browser, chat.host))
})
afterAll(async () => {
  await browser?.close()
  await chat?.stop()
  pixelServer.close()
})

describe('rich rendering in the chat', () => {
  it('renders KaTeX and Mermaid, and shows a broken formula and diagram with their errors', async () => {
    const loaded: string[] = []
    page.on('request', (request) => loaded.push(request.url()))
    await sendFromInput(page, 'show me something rich')
    const answer = page.locator('[data-testid="assistant-message"][data-status="sent"]').last()
    await answer.waitFor()

    await answer.locator('.katex').first().waitFor()
    expect(await answer.locator('.katex').count()).toBeGreaterThanOrEqual(2)
    expect(await answer.locator('.katex-display').count()).toBe(1)
    const brokenMath = answer.locator('[data-rich-error="math"]')
    await brokenMath.waitFor()
    expect(await brokenMath.locator('.md-rich-source').textContent()).toBe('\\frac{1}{')
    expect(await brokenMath.locator('.md-rich-message').textContent()).toMatch(/KaTeX parse error/)

    await answer.locator('.md-mermaid svg').first().waitFor()
    expect(await answer.locator('.md-mermaid svg').first().textContent()).toContain('Finish')
    const brokenDiagram = answer.locator('[data-rich-error="mermaid"]')
    await brokenDiagram.waitFor()
    expect(await brokenDiagram.locator('.md-rich-source').textContent()).toContain('not a diagram')
    expect((await brokenDiagram.locator('.md-rich-message').textContent())?.length).toBeGreaterThan(0)

    expect(await answer.locator('table td').first().textContent()).toBe('1')
    expect(await answer.textContent()).toContain('The end.')
    // The renderers came on demand, after the page had loaded.
    expect(loaded.some((u) => /katex/i.test(u))).toBe(true)
    expect(loaded.some((u) => /mermaid/i.test(u))).toBe(true)
    await page.screenshot({ path: artifactPath('rich-rendering.png'), fullPage: true })
  })

  it('previews HTML in a sandboxed frame that cannot reach the network or the app', async () => {
    const answer = page.getByTestId('assistant-message').last()
    await answer.locator('[data-preview-artifact="html"]').click()
    const frameElement = answer.getByTestId('artifact-preview')
    await frameElement.waitFor()
    expect(await frameElement.getAttribute('sandbox')).toBe('')
    const frame = page.frames().find((f) => f !== page.mainFrame())!
    await frame.locator('#art').waitFor()
    expect(await frame.locator('#art').textContent()).toBe('Artifact')
    // Opaque origin: the frame cannot read the app's document or storage.
    expect(await frame.evaluate(() => origin)).toBe('null')
    // After the frame's load event its image has been fetched or refused.
    await frame.waitForLoadState('load')
    expect(pixelHits).toEqual([])
    await page.screenshot({ path: artifactPath('rich-artifact.png'), fullPage: true })
    expect(errors.filter((e) => !/Content Security Policy|pixel\.png/.test(e))).toEqual([])
  })
})
