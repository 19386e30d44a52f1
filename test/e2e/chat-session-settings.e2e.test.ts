import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { providersAdd } from '@shared/contracts/routes/providers.routes'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { sessionsGetSettings } from '@shared/contracts/routes/sessions.routes'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  FAKE_MODEL_ID,
  openChat,
  sendFromInput,
  seriousA11yViolations,
  startChatHost,
  textReply,
  type ChatHost
} from './helpers/chatHost'
import { openAiBody, type OpenAiRequest } from '../fixtures/llm/openAiRequest'

let chat: ChatHost
let browser: Browser
let answers = 0

beforeAll(async () => {
  chat = await startChatHost(() => textReply(`Answer number ${++answers}.`))
  // A second provider on the same fake server, so a model switch is visible in the request body.
  await chat.bridge.call(providersAdd, {
    provider: {
      id: 'fake-second',
      kind: 'openai',
      name: 'Second provider',
      baseUrl: chat.llm.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [
        {
          id: 'second-model',
          name: 'Second model',
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
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

async function setTheme(theme: 'light' | 'dark', page: Page): Promise<void> {
  await chat.bridge.call(configUpdateSettings, { patch: { theme } })
  await expect
    .poll(() => page.locator('html').getAttribute('class'))
    .toSatisfy((c: string | null) => (theme === 'dark') === Boolean(c?.includes('dark')))
}

const toolNames = (body: OpenAiRequest): string[] => (body.tools ?? []).map((t) => t.function.name)

describe('settings of an existing chat', () => {
  it('switches the model and a tool off on an open chat; the next request uses the new model without that tool', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    await sendFromInput(page, 'first question')
    await expect
      .poll(() => page.getByTestId('assistant-message').last().getAttribute('data-status'), {
        timeout: 15_000
      })
      .toBe('sent')
    await expect.poll(() => page.url()).toContain('/chat/')
    const sessionId = page.url().split('/chat/')[1]
    const first = openAiBody(chat.llm.generationRequests().at(-1)!.body)
    expect(first.model).toBe(FAKE_MODEL_ID)
    expect(toolNames(first)).toContain('write')

    const picker = page.getByTestId('model-picker')
    await expect.poll(() => picker.isEnabled()).toBe(true)
    await picker.selectOption({ label: 'Second model' })
    await expect
      .poll(async () => (await chat.bridge.call(sessionsGetSettings, { sessionId })).settings.modelId)
      .toBe('second-model')

    await page.getByTestId('tools-button').click()
    const popover = page.getByTestId('tools-popover')
    await expect.poll(() => popover.getAttribute('data-scope')).toBe('session')
    await popover.getByTestId('tool-toggle-write').uncheck()
    await expect
      .poll(
        async () =>
          (await chat.bridge.call(sessionsGetSettings, { sessionId })).settings.tools.find(
            (t) => t.name === 'write'
          )?.enabled
      )
      .toBe(false)
    await popover.getByTestId('mcp-state-deepchat-time').waitFor()
    // Switched on, but the chat-settings tools wait for their skill: the model does not get them.
    expect(await popover.getByTestId('tool-blocked-deepchat_settings_read').textContent()).toBe(
      'Not available in this chat'
    )
    for (const theme of ['light', 'dark'] as const) {
      await setTheme(theme, page)
      await page.screenshot({ path: artifactPath(`tools-popover-session-${theme}.png`) })
      expect(await seriousA11yViolations(page)).toEqual([])
    }
    await chat.bridge.call(configUpdateSettings, { patch: { language: 'zh-CN' } })
    await expect.poll(() => popover.getByTestId('tools-scope').textContent()).toContain('只对此对话生效')
    await page.screenshot({ path: artifactPath('tools-popover-session-zh-dark.png') })
    await chat.bridge.call(configUpdateSettings, { patch: { language: 'en-US' } })
    await setTheme('light', page)
    await page.keyboard.press('Escape')
    await expect.poll(() => popover.count()).toBe(0)

    const before = chat.llm.generationRequests().length
    await sendFromInput(page, 'second question')
    await expect.poll(() => chat.llm.generationRequests().length, { timeout: 15_000 }).toBe(before + 1)
    const next = openAiBody(chat.llm.generationRequests().at(-1)!.body)
    expect(next.model).toBe('second-model')
    expect(toolNames(next)).not.toContain('write')
    expect(toolNames(next)).toContain('read')
    await expect
      .poll(() => page.getByTestId('assistant-message').last().textContent(), { timeout: 15_000 })
      .toContain(`Answer number ${answers}.`)
    // The picker still shows the chat's model after the turn (the session record reloaded meanwhile).
    expect(await picker.evaluate((el) => (el as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe(
      'Second model'
    )
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)

  it('asks before widening an open chat to full access and refuses a missing workspace folder', async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'hello')
    await expect
      .poll(() => page.getByTestId('assistant-message').last().getAttribute('data-status'), {
        timeout: 15_000
      })
      .toBe('sent')
    const sessionId = page.url().split('/chat/')[1]
    // No native dialog in a browser: the folder is typed.
    expect(await page.getByTestId('workspace-choose').count()).toBe(0)

    await page.getByTestId('permission-mode-picker').selectOption('full_access')
    await page.getByTestId('confirm-dialog').waitFor()
    await page.screenshot({ path: artifactPath('full-access-confirm-light.png') })
    await page.getByTestId('confirm-ok').click()
    await expect
      .poll(async () => (await chat.bridge.call(sessionsGetSettings, { sessionId })).settings.permissionMode)
      .toBe('full_access')
    await page.getByTestId('full-access-warning').waitFor()

    const field = page.getByTestId('workspace-input')
    await field.fill(`${chat.workspace}/does-not-exist`)
    await field.press('Enter')
    await expect.poll(() => page.getByTestId('settings-error').textContent()).toContain('existing folder')
    expect((await chat.bridge.call(sessionsGetSettings, { sessionId })).settings.workspaceDir).toBe(
      chat.workspace
    )
    const other = chat.outsideDir()
    await field.fill(other)
    await field.press('Enter')
    await expect
      .poll(async () => (await chat.bridge.call(sessionsGetSettings, { sessionId })).settings.workspaceDir)
      .toBe(other)
    expect(await page.getByTestId('settings-error').count()).toBe(0)
    await page.close()
  }, 60_000)

  it('keeps the folder typed for a new chat across a reload, and shows a chat without a folder in its scratch folder', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    // The host's default workspace is set; clearing the field asks for a scratch folder.
    const field = page.getByTestId('workspace-input')
    await expect.poll(() => field.inputValue()).toBe(chat.workspace)
    // A long path: the field shows its end, the folder's own name, when not being edited.
    const typed = join(
      chat.outsideDir(),
      'clients-and-their-long-running-projects',
      'a-rather-long-folder-name-on-the-way',
      'the-project-folder-name'
    )
    mkdirSync(typed, { recursive: true })
    await field.fill(typed)
    await field.press('Enter')
    await page.reload()
    await page.getByTestId('chat-input-text').waitFor()
    await expect.poll(() => page.getByTestId('workspace-input').inputValue()).toBe(typed)
    const endShown = (input: HTMLInputElement) =>
      input.scrollWidth > input.clientWidth && input.scrollLeft + input.clientWidth >= input.scrollWidth - 1
    await expect.poll(() => page.getByTestId('workspace-input').evaluate(endShown)).toBe(true)
    await page.screenshot({ path: artifactPath('composer-long-folder-light.png') })

    await page.getByTestId('workspace-input').fill('')
    await page.getByTestId('workspace-input').press('Enter')
    await sendFromInput(page, 'no folder please')
    await expect
      .poll(() => page.getByTestId('assistant-message').last().getAttribute('data-status'), {
        timeout: 15_000
      })
      .toBe('sent')
    await page.getByTestId('workspace-scratch').waitFor()
    const sessionId = page.url().split('/chat/')[1]
    const { settings } = await chat.bridge.call(sessionsGetSettings, { sessionId })
    expect(settings.workspaceIsScratch).toBe(true)
    expect(settings.workspaceDir.startsWith(chat.dataDir)).toBe(true)
    expect(await page.getByTestId('workspace-scratch').getAttribute('title')).toContain(settings.workspaceDir)
    await page.screenshot({ path: artifactPath('composer-scratch-light.png') })
    expect(await seriousA11yViolations(page)).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)
})
