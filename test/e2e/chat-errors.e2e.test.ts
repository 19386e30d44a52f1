import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { providersUpdate } from '@shared/contracts/routes/providers.routes'
import type { FakeResponse } from '../fixtures/llm/fakeLlm'
import { launchBrowser } from './helpers/browser'
import {
  type ChatHost,
  FAKE_PROVIDER_ID,
  lastUserText,
  openChat,
  sendFromInput,
  startChatHost,
  textReply
} from './helpers/chatHost'
import { openAiBody, type OpenAiRequest } from '../fixtures/llm/openAiRequest'

/**
 * How provider failures and Stop look in the page: each failure in its own words with its
 * action, a visible countdown while a rate-limited request waits to be retried, and Stop as a
 * neutral marker rather than an error.
 */
let chat: ChatHost
let browser: Browser
const rateLimited = new Set<string>()

function reply(body: OpenAiRequest): FakeResponse {
  const text = lastUserText(body)
  if (text.includes('bad key')) return { status: 401, message: 'Incorrect API key provided: sk-te****' }
  if (text.includes('bad request')) return { status: 400, message: "'temperature' must be at most 2" }
  if (text.includes('rate limit') && !rateLimited.has(text)) {
    rateLimited.add(text)
    return { status: 429, message: 'Too many requests', headers: { 'retry-after': '3' } }
  }
  if (text.includes('never answers')) return { steps: [{ type: 'stall' }] }
  if (text.includes('long answer')) {
    const steps: FakeResponse = { steps: [] }
    for (let i = 0; i < 200; i++)
      steps.steps.push({ type: 'text', text: [`Line ${i} of a long answer.\n\n`] }, { type: 'delay', ms: 50 })
    return steps
  }
  return textReply(`Answer to ${text}`)
}

beforeAll(async () => {
  chat = await startChatHost((request) => reply(openAiBody(request.body)))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

describe('provider errors and Stop in the page', () => {
  it('says a rejected key is a key problem and links to the provider settings', async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'try with a bad key')
    const error = page.getByTestId('assistant-message').last().getByTestId('error-block')
    await error.waitFor({ timeout: 15_000 })
    expect(await error.getAttribute('data-category')).toBe('auth')
    expect(await error.getByTestId('error-title').textContent()).toBe('The provider rejected the API key')
    await error.getByTestId('error-open-settings').click()
    await expect
      .poll(() => new URL(page.url()).hash || new URL(page.url()).pathname)
      .toContain('/settings/providers')
    await page.close()
  })

  it("shows a refused request with the provider's own message", async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'send a bad request')
    const error = page.getByTestId('assistant-message').last().getByTestId('error-block')
    await error.waitFor({ timeout: 15_000 })
    expect(await error.getByTestId('error-title').textContent()).toBe('The provider refused the request')
    expect(await error.textContent()).toContain("'temperature' must be at most 2")
    await page.close()
  })

  it('a gateway that accepts and never answers: the wait is counted, then the idle timeout ends it in words', async () => {
    await chat.bridge.call(providersUpdate, { id: FAKE_PROVIDER_ID, patch: { idleTimeoutSeconds: 3 } })
    try {
      const { page } = await openChat(browser, chat.host)
      await sendFromInput(page, 'this gateway never answers')
      const waiting = page.getByTestId('assistant-waiting-text')
      await waiting.filter({ hasText: /^Waiting for the model… [1-9] s$/ }).waitFor({ timeout: 15_000 })
      const error = page.getByTestId('assistant-message').last().getByTestId('error-block')
      await error.waitFor({ timeout: 15_000 })
      expect(await error.getAttribute('data-category')).toBe('no_response')
      expect(await error.getByTestId('error-title').textContent()).toBe('The model sent nothing')
      expect(await page.getByTestId('assistant-waiting').count()).toBe(0)
      await page.close()
    } finally {
      await chat.bridge.call(providersUpdate, { id: FAKE_PROVIDER_ID, patch: { idleTimeoutSeconds: null } })
    }
  })

  it('counts down while a rate-limited request waits, then shows the answer', async () => {
    await chat.bridge.call(providersUpdate, { id: FAKE_PROVIDER_ID, patch: { maxRetries: 1 } })
    try {
      const { page } = await openChat(browser, chat.host)
      await sendFromInput(page, 'hit the rate limit once')
      const countdown = page.getByTestId('retry-countdown')
      await countdown.waitFor({ timeout: 15_000 })
      const first = (await countdown.textContent()) ?? ''
      expect(first).toMatch(
        /^The provider is rate-limiting requests — retrying in [1-3] s \(attempt 1 of 1\)$/
      )
      // The number goes down while it waits.
      await expect.poll(() => countdown.textContent(), { timeout: 5_000 }).not.toBe(first)
      const answer = page.getByTestId('assistant-message').last()
      await expect
        .poll(() => answer.textContent(), { timeout: 15_000 })
        .toContain('Answer to hit the rate limit once')
      expect(await page.getByTestId('retry-countdown').count()).toBe(0)
      expect(await answer.getByTestId('error-block').count()).toBe(0)
      await page.close()
    } finally {
      await chat.bridge.call(providersUpdate, { id: FAKE_PROVIDER_ID, patch: { maxRetries: 0 } })
    }
  })

  it('shows Stop as a neutral Stopped marker, not an error with Retry', async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'write a long answer')
    const answer = page.getByTestId('assistant-message').last()
    await expect.poll(() => answer.textContent(), { timeout: 15_000 }).toContain('Line 3')
    await page.getByTestId('stop-button').click()
    const marker = answer.getByTestId('stopped-marker')
    await marker.waitFor({ timeout: 15_000 })
    expect(await marker.textContent()).toContain('Stopped')
    expect(await answer.getByTestId('error-block').count()).toBe(0)
    expect(await answer.getByTestId('error-retry').count()).toBe(0)
    expect(await answer.getAttribute('data-status')).toBe('cancelled')
    await page.close()
  })
})
