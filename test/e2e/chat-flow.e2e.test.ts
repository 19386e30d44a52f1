import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { startFakeLlm, type FakeLlm, type FakeResponse } from '../fixtures/llm/fakeLlm'
import { providersAdd } from '@shared/contracts/routes/providers.routes'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  callsReply,
  type ChatHost,
  lastUserText,
  openChat,
  sendFromInput,
  seriousA11yViolations,
  startChatHost,
  textReply,
  toolCall
} from './helpers/chatHost'
import { openAiBody, type OpenAiRequest } from '../fixtures/llm/openAiRequest'

const MARKDOWN_ANSWER = [
  '## Result\n\n',
  'Here is **bold** text and a table:\n\n',
  '| City | Temp |\n|---|---|\n| Paris | 21 |\n| Oslo | 12 |\n\n',
  '```ts\nconst answer: number = 42\n```\n\n',
  'Done.'
]

let chat: ChatHost
let browser: Browser
let thinking: FakeLlm

/** A second provider in Anthropic's format: it streams reasoning (thinking) before its calls. */
function thinkingReply(body: unknown): FakeResponse {
  const { messages } = body as { messages: Array<{ content: string | Array<{ type: string }> }> }
  const answered = messages.some(
    (m) => Array.isArray(m.content) && m.content.some((c) => c.type === 'tool_result')
  )
  if (answered) return textReply('All done.')
  return {
    steps: [
      { type: 'reasoning', text: ['First I plan, ', 'then I run a command.'], signature: 'sig' },
      {
        type: 'tool_calls',
        calls: [
          toolCall('p1', 'update_plan', {
            plan: [
              { step: 'Look around', status: 'completed' },
              { step: 'Say hello', status: 'in_progress' }
            ]
          }),
          toolCall('x1', 'exec', { command: 'echo hello-terminal' })
        ]
      }
    ]
  }
}
let outside: string

/** Text of the newest user message in an OpenAI request body. */

/** The fake model answers by keyword, so each test drives its own conversation. */
function reply(body: OpenAiRequest): FakeResponse {
  const last = body.messages[body.messages.length - 1]
  if (last.role === 'tool') return textReply(`Tool answered: ${String(last.content).slice(0, 120)}`)
  const text = lastUserText(body)
  if (text.includes('markdown please'))
    return {
      steps: [
        { type: 'text', text: MARKDOWN_ANSWER },
        { type: 'usage', promptTokens: 31, completionTokens: 57 }
      ]
    }
  if (text.includes('write outside'))
    return callsReply(
      toolCall('w1', 'write', {
        path: join(outside, `note-${Date.now()}.txt`),
        content: 'hello from the model'
      })
    )
  if (text.includes('remove things'))
    return callsReply(toolCall('e1', 'exec', { command: `rm -rf ${outside}/junk && echo removed` }))
  if (text.includes('ask me')) {
    return callsReply(
      toolCall('q1', 'deepchat_question', {
        header: 'Colours',
        question: 'Which colours do you like?',
        options: [{ label: 'Red' }, { label: 'Blue', description: 'like the sea' }, { label: 'Green' }],
        multiple: true,
        custom: true
      })
    )
  }
  if (text.includes('long story'))
    return { steps: [{ type: 'text', text: ['Once upon ', 'a time '] }, { type: 'stall' }] }
  return textReply(`You said: ${text}`)
}

async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  await chat.bridge.call(configUpdateSettings, { patch: { theme } })
}

async function lastAssistant(page: Page) {
  return page.getByTestId('assistant-message').last()
}

beforeAll(async () => {
  // Only the chat that asks for it gets a model title; the others keep their first line.
  chat = await startChatHost((request) => reply(openAiBody(request.body)), {
    titleReply: (request) =>
      JSON.stringify(request.body).includes('name this chat') ? 'Named by the model' : ''
  })
  outside = chat.outsideDir()
  thinking = await startFakeLlm({ kind: 'anthropic', script: (request) => thinkingReply(request.body) })
  await chat.bridge.call(providersAdd, {
    provider: {
      id: 'fake-anthropic',
      kind: 'anthropic',
      name: 'Fake Anthropic',
      baseUrl: thinking.baseUrl,
      apiKey: 'sk-ant-test-0123456789',
      models: [
        {
          id: 'claude-fake',
          name: 'Claude fake',
          contextLength: 200_000,
          maxOutputTokens: 8192,
          vision: false,
          toolCalling: true,
          reasoning: true,
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
  await thinking?.close()
})

describe('chat window against the served host and a fake provider', () => {
  it('streams a markdown answer with a table and highlighted code, in both themes, without serious a11y issues', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    await setTheme('light')
    await sendFromInput(page, 'markdown please')
    await page.waitForURL(/#\/chat\//)
    const answer = await lastAssistant(page)
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    expect(await answer.locator('h2').textContent()).toBe('Result')
    expect(await answer.locator('table td').allTextContents()).toEqual(['Paris', '21', 'Oslo', '12'])
    expect(await answer.locator('code.hljs .hljs-keyword').first().textContent()).toBe('const')
    expect(await answer.locator('strong').textContent()).toBe('bold')
    expect(await answer.locator('[data-copy-code]').count()).toBe(1)
    await expect.poll(() => answer.getByTestId('message-usage').textContent()).toContain('57')
    // The sidebar lists the new chat under Today.
    expect(await page.getByTestId('session-group-today').getByTestId('session-item').count()).toBe(1)
    await page.screenshot({ path: artifactPath('chat-light.png') })
    expect(await seriousA11yViolations(page)).toEqual([])
    await setTheme('dark')
    await expect.poll(() => page.locator('html').getAttribute('class')).toContain('dark')
    await page.screenshot({ path: artifactPath('chat-dark.png') })
    expect(await seriousA11yViolations(page)).toEqual([])
    await setTheme('light')
    expect(errors).toEqual([])
    await page.close()
  })

  it('asks before a write outside the workspace; Allow once runs it and the answer continues', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    await sendFromInput(page, 'write outside please')
    const card = page.getByTestId('permission-card')
    await card.waitFor({ timeout: 15_000 })
    expect(await card.getByTestId('permission-tool').textContent()).toBe('write')
    expect(await card.getByTestId('permission-paths').textContent()).toContain(outside)
    // Not dismissable: Escape leaves it open.
    await page.keyboard.press('Escape')
    expect(await card.isVisible()).toBe(true)
    // Focus starts on Deny (the safe answer) and stays inside the card.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'permission-deny'
    )
    await page.screenshot({ path: artifactPath('permission-light.png') })
    expect(await seriousA11yViolations(page)).toEqual([])
    await setTheme('dark')
    await expect.poll(() => page.locator('html').getAttribute('class')).toContain('dark')
    await page.screenshot({ path: artifactPath('permission-dark.png') })
    expect(await seriousA11yViolations(page)).toEqual([])
    await setTheme('light')

    await card.getByTestId('permission-allow-once').click()
    await card.waitFor({ state: 'detached' })
    const answer = await lastAssistant(page)
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    const tool = answer.getByTestId('tool-call')
    expect(await tool.getAttribute('data-status')).toBe('success')
    await tool.getByTestId('tool-call-toggle').click()
    // The diff view loads just after the chat: its text can come a moment after the toggle.
    await expect.poll(() => tool.getByTestId('tool-diff').textContent()).toContain('hello from the model')
    expect(await answer.getByTestId('markdown').last().textContent()).toContain('Tool answered:')
    const written = openAiBody(chat.llm.generationRequests().at(-1)!.body)
    const toolMessage = written.messages.find((m) => m.role === 'tool')
    const path = String(
      JSON.parse(written.messages.find((m) => m.tool_calls)?.tool_calls?.[0].function.arguments ?? '{}').path
    )
    expect(existsSync(path) && readFileSync(path, 'utf8')).toBe('hello from the model')
    expect(toolMessage?.content).not.toContain('denied')
    expect(errors).toEqual([])
    await page.close()
  })

  it('Deny sends the refusal to the model and shows the call as failed', async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'write outside again')
    const card = page.getByTestId('permission-card')
    await card.waitFor({ timeout: 15_000 })
    await page.keyboard.press('Enter') // focus is on Deny
    await card.waitFor({ state: 'detached' })
    const answer = await lastAssistant(page)
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    expect(await answer.getByTestId('tool-call').getAttribute('data-status')).toBe('error')
    expect(await answer.getByTestId('markdown').last().textContent()).toContain('User denied the request.')
    expect(await answer.getByTestId('action-block').textContent()).toContain('Denied write')
    await page.close()
  })

  it("shows a command's risk per sub-command with the reasons", async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'remove things')
    const card = page.getByTestId('permission-card')
    await card.waitFor({ timeout: 15_000 })
    const command = card.getByTestId('permission-command')
    expect(await command.locator('pre').textContent()).toContain('rm -rf')
    const subs = command.getByTestId('permission-subcommand')
    expect(await subs.count()).toBe(2)
    const rm = subs.first()
    expect(await rm.textContent()).toContain('rm -rf')
    expect(['high', 'critical']).toContain(await rm.getByTestId('risk-badge').getAttribute('data-risk'))
    expect(await subs.nth(1).getByTestId('risk-badge').getAttribute('data-risk')).toBe('low')
    const englishReasons = await rm.getByTestId('permission-subcommand-reason').allTextContents()
    expect(englishReasons.join(' ')).toMatch(/rm/)
    // The reasons follow the UI language (main sends codes beside the English text).
    await chat.bridge.call(configUpdateSettings, { patch: { language: 'zh-CN', theme: 'dark' } })
    await expect
      .poll(() => rm.getByTestId('permission-subcommand-reason').first().textContent())
      .toMatch(/[\u4e00-\u9fff]/)
    await page.screenshot({ path: artifactPath('permission-command-zh-dark.png') })
    await chat.bridge.call(configUpdateSettings, { patch: { language: 'en-US', theme: 'light' } })
    await expect
      .poll(() => rm.getByTestId('permission-subcommand-reason').allTextContents())
      .toEqual(englishReasons)
    await card.getByTestId('permission-deny').click()
    await card.waitFor({ state: 'detached' })
    await page.close()
  })

  it('answers a question with two options and free text', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    await sendFromInput(page, 'ask me something')
    const card = page.getByTestId('question-card')
    await card.waitFor({ timeout: 15_000 })
    expect(await card.getByTestId('question-text').textContent()).toBe('Which colours do you like?')
    await page.screenshot({ path: artifactPath('question-light.png') })
    expect(await seriousA11yViolations(page)).toEqual([])
    await setTheme('dark')
    await expect.poll(() => page.locator('html').getAttribute('class')).toContain('dark')
    await page.screenshot({ path: artifactPath('question-dark.png') })
    expect(await seriousA11yViolations(page)).toEqual([])
    await setTheme('light')

    await card.getByTestId('question-option-Red').check()
    await card.getByTestId('question-option-Blue').check()
    await card.getByTestId('question-custom').fill('and a bit of gold')
    await card.getByTestId('question-submit').click()
    await card.waitFor({ state: 'detached' })
    const answer = await lastAssistant(page)
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    const toolResult = String(openAiBody(chat.llm.generationRequests().at(-1)!.body).messages.at(-1)?.content)
    expect(toolResult).toContain('Red')
    expect(toolResult).toContain('Blue')
    expect(toolResult).toContain('and a bit of gold')
    expect(await answer.getByTestId('action-block').textContent()).toContain('and a bit of gold')
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows reasoning with its timer, the plan checklist and a command in a terminal view', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    await page.getByTestId('model-picker').selectOption({ label: 'Claude fake' })
    await sendFromInput(page, 'plan and run it')
    await page.waitForURL(/#\/chat\//)
    expect(await page.getByTestId('model-picker').inputValue()).toContain('claude-fake')
    await expect.poll(() => thinking.generationRequests().length, { timeout: 15_000 }).toBeGreaterThan(0)
    const answer = await lastAssistant(page)
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    expect(await answer.getByTestId('reasoning-timer').textContent()).toMatch(/^Thought for (\d+|\d\.\d)s$/)
    await answer.getByTestId('reasoning-toggle').click()
    expect(await answer.getByTestId('reasoning-block').textContent()).toContain('then I run a command.')
    const plan = answer.getByTestId('plan-block')
    expect(await plan.textContent()).toContain('1/2')
    expect(await plan.locator('li[data-status="completed"]').textContent()).toContain('Look around')
    const exec = answer.locator('[data-testid="tool-call"][data-tool="exec"]')
    expect(await exec.getByTestId('tool-call-summary').textContent()).toBe('echo hello-terminal')
    await exec.getByTestId('tool-call-toggle').click()
    const terminal = exec.getByTestId('tool-terminal')
    expect(await terminal.textContent()).toContain('$ echo hello-terminal')
    expect(await terminal.textContent()).toContain('hello-terminal\n')
    await page.screenshot({ path: artifactPath('chat-blocks-light.png') })
    expect(errors).toEqual([])
    await page.close()
  })

  it('stops a reply mid-stream and keeps the partial text', async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'tell me a long story')
    const answer = await lastAssistant(page)
    await expect
      .poll(async () => (await page.getByTestId('assistant-message').last().textContent()) ?? '', {
        timeout: 15_000
      })
      .toContain('Once upon')
    await page.getByTestId('stop-button').click()
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 10_000 }).toBe('cancelled')
    expect(await answer.getByTestId('markdown').first().textContent()).toContain('Once upon a time')
    await page.getByTestId('send-button').waitFor()
    await page.close()
  })

  it('renames a new chat in the sidebar with the title its model suggests', async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'please name this chat')
    await page.waitForURL(/#\/chat\//)
    const item = page.locator(`[data-session-id="${page.url().split('/chat/')[1]}"]`)
    await expect.poll(() => item.textContent(), { timeout: 15_000 }).toContain('Named by the model')
    await page.close()
  })

  it('edits a sent message and resends it: the old turn leaves the list', async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'first version')
    await expect
      .poll(async () => (await lastAssistant(page)).getAttribute('data-status'), { timeout: 15_000 })
      .toBe('sent')
    const user = page.getByTestId('user-message').first()
    await user.hover()
    await user.getByTestId('user-edit').click()
    await page.getByTestId('user-edit-input').fill('second version')
    await page.getByTestId('user-edit-send').click()
    await expect
      .poll(async () => page.getByTestId('user-text').allTextContents(), { timeout: 15_000 })
      .toEqual(['second version'])
    await expect
      .poll(async () => (await lastAssistant(page)).textContent(), { timeout: 15_000 })
      .toContain('You said: second version')
    expect(await page.getByTestId('assistant-message').count()).toBe(1)
    await page.close()
  })

  it('finds an old message through history search and opens its chat', async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'remember the word zeppelinfish')
    await expect
      .poll(async () => (await lastAssistant(page)).getAttribute('data-status'), { timeout: 15_000 })
      .toBe('sent')
    const chatUrl = page.url()
    await page.getByTestId('new-chat').click()
    await page.getByTestId('chat-welcome').waitFor()
    await page.getByTestId('history-search').fill('zeppelinfish')
    await page.getByTestId('history-search').press('Enter')
    const hit = page.getByTestId('search-hit').first()
    await hit.waitFor()
    await hit.click()
    await page.waitForURL((url) => url.href.startsWith(`${chatUrl}?message=`))
    expect(await page.getByTestId('user-text').first().textContent()).toContain('zeppelinfish')
    await page.close()
  })

  it('survives a reload while paused and takes the answer afterwards', async () => {
    const { page } = await openChat(browser, chat.host)
    await sendFromInput(page, 'write outside after a reload')
    await page.getByTestId('permission-card').waitFor({ timeout: 15_000 })
    // The address names the chat before its card shows, so the reload comes back to it.
    expect(page.url()).toMatch(/#\/chat\//)
    await page.reload()
    const card = page.getByTestId('permission-card')
    await card.waitFor({ timeout: 15_000 })
    await card.getByTestId('permission-allow-once').click()
    await card.waitFor({ state: 'detached' })
    const answer = await lastAssistant(page)
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    expect(await answer.getByTestId('tool-call').getAttribute('data-status')).toBe('success')
    await page.close()
  })
})
