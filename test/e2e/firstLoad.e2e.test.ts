import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { FIRST_LOAD_BUDGET_BYTES, formatFirstLoad, readFirstLoad } from '../../scripts/vite/firstLoad'
import { launchBrowser } from './helpers/browser'
import { startChatHost, type ChatHost } from './helpers/chatHost'

const RENDERER_OUT = join(import.meta.dirname, '..', '..', 'out', 'renderer')

let chat: ChatHost
let browser: Browser

beforeAll(async () => {
  chat = await startChatHost(() => ({ steps: [{ type: 'text', text: ['ok'] }] }))
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

describe('first load', () => {
  it('the build keeps the JS loaded before the chat is interactive within 600 KB', () => {
    const report = readFirstLoad(RENDERER_OUT)
    console.log(formatFirstLoad(report))
    expect(report.files.some((f) => f.file.includes('ChatPage'))).toBe(true)
    expect(report.totalBytes).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES)
  })

  it('a browser fetches no more JS than that before the composer takes input', async () => {
    const page = await browser.newPage()
    const scripts = new Map<string, number>()
    let interactive = false
    page.on('response', async (response) => {
      if (interactive || response.request().resourceType() !== 'script') return
      const url = response.url()
      scripts.set(url, 0)
      scripts.set(url, (await response.body()).length)
    })
    await page.goto(chat.host.url)
    await page.getByTestId('chat-input-text').waitFor()
    interactive = true
    await page.waitForLoadState('networkidle')
    const total = [...scripts.values()].reduce((a, b) => a + b, 0)
    console.log(`scripts fetched before the composer was ready: ${(total / 1024).toFixed(1)} KB`)
    expect(scripts.size).toBeGreaterThan(0)
    expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES)
    // Nothing heavy sneaked in: the rich renderers are not among them.
    expect([...scripts.keys()].filter((u) => /katex|mermaid|highlight|zh-CN/i.test(u))).toEqual([])
    await page.close()
  })
})
