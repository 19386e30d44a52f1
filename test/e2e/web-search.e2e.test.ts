import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { webSearchUpdateSettings } from '@shared/contracts/routes/webSearch.routes'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  callsReply,
  openChat,
  seriousA11yViolations,
  sendFromInput,
  startChatHost,
  textReply,
  toolCall,
  type ChatHost
} from './helpers/chatHost'
import { FAKE_KEY, startFakeSearch, type FakeSearch } from '../fixtures/web/fakeSearch'

let chat: ChatHost
let engine: FakeSearch
let browser: Browser

beforeAll(async () => {
  chat = await startChatHost([
    callsReply(toolCall('s1', 'web_search', { query: 'kyoto autumn leaves' })),
    textReply('The leaves peak in late November [1], around Nov 25 [2].')
  ])
  engine = await startFakeSearch('tavily', [
    { title: 'Kyoto autumn leaves', url: 'https://kyoto.example/autumn', snippet: 'Best in late November.' },
    { title: 'Hidden', url: 'javascript:alert(1)', snippet: 'dropped' },
    { title: 'Maple forecast', url: 'https://forecast.example/maple', snippet: 'Peak on Nov 25.' }
  ])
  await chat.bridge.call(webSearchUpdateSettings, {
    patch: { engine: 'tavily', endpoints: { tavily: engine.baseUrl }, keys: { tavily: FAKE_KEY } }
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await engine?.close()
  await chat?.stop()
})

describe('web search in a chat', () => {
  it('the model searches, the engine answers, the sources block lists the cited sources and a source opens through the http(s)-only opener', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    page.setDefaultTimeout(15_000)
    // What the page asks main over the bridge, to see the opener being used.
    const sent: string[] = []
    page.on('websocket', (socket) => socket.on('framesent', (frame) => sent.push(String(frame.payload))))
    await page.reload()
    await page.getByTestId('chat-input-text').waitFor()

    await sendFromInput(page, 'When do the leaves turn in Kyoto?')
    const sources = page.getByTestId('web-sources')
    await sources.waitFor()
    expect(await sources.getByTestId('web-source-link').allTextContents()).toEqual([
      'Kyoto autumn leaves',
      'Maple forecast'
    ])
    expect(await sources.textContent()).toContain('[2]')
    await expect
      .poll(() => page.getByTestId('assistant-message').last().textContent())
      .toContain('late November [1]')
    expect(engine.requests[0].body).toMatchObject({ query: 'kyoto autumn leaves' })
    await page.screenshot({ path: artifactPath('web-search-sources.png') })
    expect(await seriousA11yViolations(page)).toEqual([])

    await sources.getByTestId('web-source-link').nth(1).click()
    await expect
      .poll(() =>
        sent.some((f) => f.includes('app.openExternal') && f.includes('https://forecast.example/maple'))
      )
      .toBe(true)
    // The page itself never navigated away.
    expect(page.url()).toContain(new URL(chat.host.url).host)
    expect(errors).toEqual([])
    await page.close()
  })
})
