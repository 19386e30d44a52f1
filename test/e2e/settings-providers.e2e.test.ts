import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { launchBrowser } from './helpers/browser'
import { serve, type ServedHost } from './helpers/host'
import { startFakeLlm, type FakeLlm } from '../fixtures/llm/fakeLlm'
import { gotoSection, openSettings, relevantErrors, setTheme, shootAndCheck } from './settings-helpers'

const API_KEY = 'sk-e2e-provider-key-7f3a9c'

let browser: Browser
let dataDir: string
let host: ServedHost
let fake: FakeLlm

beforeAll(async () => {
  browser = await launchBrowser()
  dataDir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-providers-'))
  host = await serve(dataDir)
  fake = await startFakeLlm({
    kind: 'openai',
    models: ['fake-chat-large', 'fake-chat-small'],
    apiKey: API_KEY
  })
})

afterAll(async () => {
  await browser?.close()
  await host?.stop()
  await fake?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('providers settings in the browser', () => {
  it('adds a custom OpenAI-compatible provider against the fake server, verifies it and fetches its models', async () => {
    const { page, errors } = await openSettings(browser, host, 'providers')
    await page.getByTestId('providers-empty').waitFor()
    // The presets are listed before any is added.
    expect(await page.getByTestId('providers-available').getByRole('button').allTextContents()).toContain(
      'Ollama'
    )
    await shootAndCheck(page, 'providers-empty-light')

    await page.getByTestId('provider-add').click()
    await page.getByTestId('provider-preset').selectOption('custom')
    await page.getByTestId('provider-name').fill('Fake LLM')
    await page.getByTestId('provider-url').fill(fake.baseUrl)
    await page.getByTestId('provider-key').fill(API_KEY)
    await shootAndCheck(page, 'providers-add-light')
    await page.getByTestId('provider-add-submit').click()
    await expect.poll(() => page.getByTestId('provider-detail-name').textContent()).toBe('Fake LLM')
    // The models were fetched on add, and the page says so.
    expect(await page.getByTestId('provider-fetch-notice').textContent()).toContain('listed 2 models')

    // The key is stored but never comes back in clear.
    expect(await page.getByTestId('provider-detail-key').inputValue()).toBe('')
    expect(await page.getByTestId('provider-key-state').textContent()).toContain('9c')
    expect(await page.content()).not.toContain(API_KEY)

    await page.getByTestId('provider-verify').click()
    await page.getByTestId('provider-verify-ok').waitFor()

    await page.getByTestId('provider-fetch-models').click()
    await page.getByTestId('model-fake-chat-large').waitFor()
    await page.getByTestId('model-fake-chat-small').waitFor()
    expect(await page.getByTestId('provider-message').textContent()).toContain('2 models')
    expect(fake.requests.filter((r) => r.path === '/v1/models').length).toBeGreaterThanOrEqual(2)

    await page.getByTestId('model-make-default-fake-chat-small').click()
    await page.getByTestId('model-default-fake-chat-small').waitFor()
    await page.getByTestId('model-settings-fake-chat-large').click()
    await page.getByTestId('model-cap-vision-fake-chat-large').check()
    await page.getByTestId('model-save-fake-chat-large').click()
    await expect.poll(() => page.getByTestId('model-fake-chat-large').textContent()).toContain('Vision')
    await page.getByTestId('model-enabled-fake-chat-large').uncheck({ force: true })
    await expect.poll(() => page.getByTestId('model-enabled-fake-chat-large').isChecked()).toBe(false)
    await shootAndCheck(page, 'providers-light')

    // A wrong key typed but not saved is checked as-is, and fails with the provider's message.
    await page.getByTestId('provider-detail-key').fill('sk-wrong')
    await page.getByTestId('provider-verify').click()
    await page.getByTestId('provider-verify-failed').waitFor()

    await page.reload()
    await page.getByTestId('settings-providers').waitFor()
    await page.getByTestId('model-default-fake-chat-small').waitFor()
    expect(await page.getByTestId('model-enabled-fake-chat-large').isChecked()).toBe(false)
    await setTheme(page, 'dark', 'providers')
    await page.getByTestId('model-fake-chat-large').waitFor()
    await shootAndCheck(page, 'providers-dark')
    await setTheme(page, 'light', 'providers')
    expect(relevantErrors(errors)).toEqual([])
    await page.context().close()
  }, 120_000)

  it('removes a custom provider after confirmation', async () => {
    const { page } = await openSettings(browser, host, 'providers')
    await page.getByTestId('provider-remove').click()
    await page.getByTestId('provider-remove-confirm').click()
    await page.getByTestId('providers-empty').waitFor()
    await page.context().close()
  }, 60_000)
})

describe('agent tools settings in the browser', () => {
  it('switches a built-in tool off, and sets the default workspace folder in General', async () => {
    const { page, errors } = await openSettings(browser, host, 'agent-tools')
    await page.getByTestId('agent-tool-exec').waitFor()
    await page.getByTestId('agent-tool-enabled-exec').uncheck({ force: true })
    await expect.poll(() => page.getByTestId('agent-tools-status').textContent()).toBe('Saved')
    await shootAndCheck(page, 'agent-tools-light')

    const workspace = mkdtempSync(join(tmpdir(), 'deepchat-e2e-workspace-'))
    await gotoSection(page, 'general')
    await page.getByTestId('default-workspace').fill('/definitely/not/here')
    await page.getByTestId('default-workspace-save').click()
    await expect.poll(() => page.getByTestId('settings-status').textContent()).toContain('does not exist')
    // The app's own data folder can never be a workspace.
    await page.getByTestId('default-workspace').fill(dataDir)
    await page.getByTestId('default-workspace-save').click()
    await expect
      .poll(() => page.getByTestId('settings-status').textContent())
      .toContain('data folder cannot be a workspace')
    await page.getByTestId('default-workspace').fill(workspace)
    await page.getByTestId('default-workspace-save').click()
    await expect
      .poll(() => page.getByTestId('settings-status').textContent())
      .toBe('Default workspace saved.')
    await shootAndCheck(page, 'settings-general-workspace-light')

    await page.reload()
    await page.getByTestId('default-workspace').waitFor()
    await expect.poll(() => page.getByTestId('default-workspace').inputValue()).toBe(workspace)
    await gotoSection(page, 'agent-tools')
    await page.getByTestId('agent-tool-exec').waitFor()
    expect(await page.getByTestId('agent-tool-enabled-exec').isChecked()).toBe(false)
    expect(await page.getByTestId('agent-tool-enabled-read').isChecked()).toBe(true)
    rmSync(workspace, { recursive: true, force: true })

    await gotoSection(page, 'general')
    await page.getByTestId('language-select').selectOption('zh-CN')
    await setTheme(page, 'dark', 'agent-tools')
    await expect
      .poll(() => page.getByTestId('settings-nav-agent-tools').textContent())
      .toContain('智能体工具')
    await shootAndCheck(page, 'agent-tools-zh-dark')
    for (const section of ['providers', 'mcp', 'permissions']) {
      await gotoSection(page, section)
      await shootAndCheck(page, `${section}-zh-dark`)
    }
    expect(relevantErrors(errors)).toEqual([])
    await page.context().close()
  }, 120_000)
})
