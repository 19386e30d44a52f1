import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser } from 'playwright-core'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import type { FakeResponse } from '../fixtures/llm/fakeLlm'
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
import { openAiBody, type OpenAiRequest } from '../fixtures/llm/openAiRequest'

let chat: ChatHost
let browser: Browser

function reply(body: OpenAiRequest): FakeResponse {
  if (body.messages.at(-1)?.role === 'tool') return textReply('listed')
  return callsReply(toolCall(`s${body.messages.length}`, 'skill_list', {}))
}

/** The skill_list result the model read last. */
const lastSkillList = () =>
  String(openAiBody(chat.llm.generationRequests().at(-1)!.body).messages.at(-1)?.content)

beforeAll(async () => {
  chat = await startChatHost((request) => reply(openAiBody(request.body)))
  await chat.bridge.call(configUpdateSettings, { patch: { defaultPermissionMode: 'full_access' } })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

describe('Settings › Skills', () => {
  it('switching a skill off on the page removes it from skill_list in chats', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    await sendFromInput(page, 'list skills')
    const answer = () => page.getByTestId('assistant-message').last()
    await expect.poll(() => answer().getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    expect(lastSkillList()).toContain('code-review')

    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-nav-skills').click()
    const item = page.locator('[data-testid="skill-item"][data-skill="code-review"]')
    await item.getByTestId('skill-view').click()
    await expect.poll(() => item.getByTestId('skill-body').textContent()).not.toBe('')
    await item.getByTestId('skill-enabled').uncheck({ force: true })
    await expect.poll(() => item.getByTestId('skill-enabled').getAttribute('aria-checked')).toBe('false')
    await page.screenshot({ path: artifactPath('settings-skills.png') })
    expect(await seriousA11yViolations(page)).toEqual([])

    await page.getByTestId('new-chat').click()
    await sendFromInput(page, 'list skills again')
    await expect.poll(() => answer().getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    expect(lastSkillList()).not.toContain('code-review')
    expect(errors).toEqual([])
    await page.close()
  })
})
