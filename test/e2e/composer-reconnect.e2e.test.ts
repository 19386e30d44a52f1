import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { providersAdd, providersSetDefault } from '@shared/contracts/routes/providers.routes'
import { launchBrowser } from './helpers/browser'
import { hostBridge, sendFromInput, textReply } from './helpers/chatHost'
import { serve, type ServedHost } from './helpers/host'
import { startFakeLlm, type FakeLlm } from '../fixtures/llm/fakeLlm'
import { openAiBody } from '../fixtures/llm/openAiRequest'

const cleanup: Array<() => Promise<void> | void> = []
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step()
})

/** A host as `npm run serve` runs it (no --port: a restart reuses the port and token). */
async function startHost(dataDir: string): Promise<ServedHost> {
  const host = await serve(dataDir, {}, { omitPort: true })
  cleanup.push(() => host.stop())
  return host
}

async function addFakeModel(host: ServedHost, llm: FakeLlm): Promise<void> {
  const bridge = hostBridge(host)
  await bridge.call(providersAdd, {
    provider: {
      id: 'fake',
      kind: 'openai',
      name: 'Fake',
      baseUrl: llm.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [
        {
          id: 'fake-model',
          name: 'Fake model',
          contextLength: 128_000,
          maxOutputTokens: 8192,
          vision: false,
          toolCalling: true,
          reasoning: false,
          enabled: true
        }
      ],
      maxRetries: 0
    }
  })
  await bridge.call(providersSetDefault, { defaultModel: { providerId: 'fake', modelId: 'fake-model' } })
}

describe('the composer while the host is down', () => {
  it('keeps text typed while disconnected, refuses the send visibly, and sends once the host is back', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-reconnect-'))
    cleanup.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const llm = await startFakeLlm({ kind: 'openai', script: () => textReply('Back online.') })
    cleanup.push(() => llm.close())
    const first = await startHost(dataDir)
    await addFakeModel(first, llm)
    const browser: Browser = await launchBrowser()
    cleanup.push(() => browser.close())
    const page = await browser.newPage()
    await page.goto(first.url)
    const input = page.getByTestId('chat-input-text')
    await input.waitFor()

    await first.stop()
    await page.getByTestId('composer-offline').waitFor({ timeout: 15_000 })
    await input.fill('written while the host was down')
    await input.press('Enter')
    expect(await page.getByTestId('send-button').isDisabled()).toBe(true)
    expect(await page.getByTestId('send-button').getAttribute('title')).toContain('Disconnected')
    expect(await input.inputValue()).toBe('written while the host was down')
    expect(llm.generationRequests()).toEqual([])

    const second = await startHost(dataDir)
    expect(second.url).toBe(first.url)
    await expect.poll(() => page.getByTestId('composer-offline').count(), { timeout: 20_000 }).toBe(0)
    expect(await input.inputValue()).toBe('written while the host was down')
    await input.press('Enter')
    await expect.poll(() => llm.generationRequests().length, { timeout: 15_000 }).toBe(1)
    const body = openAiBody(llm.generationRequests()[0].body)
    expect(JSON.stringify(body.messages.at(-1))).toContain('written while the host was down')
    await expect
      .poll(() => page.getByTestId('assistant-message').last().textContent(), { timeout: 15_000 })
      .toContain('Back online.')
    await sendFromInput(page, 'and one more after the restart')
    await expect.poll(() => llm.generationRequests().length, { timeout: 15_000 }).toBe(2)
  }, 90_000)
})
