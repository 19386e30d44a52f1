import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { providersAdd } from '@shared/contracts/routes/providers.routes'
import { mcpAdd, mcpList } from '@shared/contracts/routes/mcp.routes'
import { startFakeLlm, type FakeLlm, type FakeResponse } from '../fixtures/llm/fakeLlm'
import { patternPng } from '../fixtures/llm/fakeImages'
import { splitScript, userTexts } from '../main/subagents/helpers'
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

const IMAGE = patternPng(240, 160)
const EVERYTHING = join(
  import.meta.dirname,
  '..',
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js'
)
const LONG_OPERATION = 'everything__trigger-long-running-operation'
const TINY_IMAGE = 'everything__get-tiny-image'
/** How long each child keeps working, so its row is seen running before it completes. */
const CHILD_WORK_MS = { alpha: 1500, beta: 6000 }

let chat: ChatHost
let browser: Browser
let gemini: FakeLlm
let outside: string

function lastUserText(body: OpenAiRequest): string {
  const texts = userTexts(body)
  return texts[texts.length - 1] ?? ''
}

/** The parent conversation: answers by keyword; after a tool round it quotes the tool result. */
function parentReply(body: OpenAiRequest): FakeResponse {
  const last = body.messages[body.messages.length - 1]
  if (last.role === 'tool') return textReply(`Tool answered: ${String(last.content).slice(0, 400)}`)
  const text = lastUserText(body)
  if (text.includes('split the work')) {
    return callsReply(
      toolCall('s1', 'subagent_orchestrator', {
        operation: 'run',
        mode: 'parallel',
        tasks: [
          { slotId: 'self', title: 'Alpha survey', prompt: 'Find alpha.' },
          { slotId: 'self', title: 'Beta survey', prompt: 'Find beta.' }
        ]
      })
    )
  }
  if (text.includes('delegate a write')) {
    return callsReply(
      toolCall('s2', 'subagent_orchestrator', {
        mode: 'parallel',
        tasks: [{ slotId: 'self', title: 'Note writer', prompt: 'Write the note outside.' }]
      })
    )
  }
  if (text.includes('show the tiny image')) return callsReply(toolCall('m2', TINY_IMAGE, {}))
  if (text.includes('run the slow tool'))
    return callsReply(toolCall('m1', LONG_OPERATION, { duration: 3, steps: 3 }))
  if (text.includes('pick a fruit')) {
    return callsReply(
      toolCall('q1', 'deepchat_question', {
        question: 'Which fruit?',
        options: [{ label: 'Apple' }, { label: 'Pear', description: 'the green one' }]
      })
    )
  }
  if (text.includes('ask and let me skip')) {
    return callsReply(
      toolCall('q2', 'deepchat_question', {
        question: 'Any preference?',
        options: [{ label: 'Tea' }, { label: 'Coffee' }],
        custom: false
      })
    )
  }
  return textReply(`You said: ${text}`)
}

/** A child works for a while (visible as running), then answers with its result. */
function childReply(handoff: string, body: OpenAiRequest): FakeResponse {
  if (handoff.includes('Write the note outside.')) {
    const last = body.messages[body.messages.length - 1]
    if (last.role === 'tool') return textReply(`NOTE-WRITTEN: ${String(last.content).slice(0, 80)}`)
    return callsReply(
      toolCall('w1', 'write', { path: join(outside, 'child-note.txt'), content: 'from the child' })
    )
  }
  const name = handoff.includes('Find alpha.') ? 'alpha' : 'beta'
  return {
    steps: [
      { type: 'text', text: [`Working on ${name}. `] },
      { type: 'delay', ms: CHILD_WORK_MS[name] },
      { type: 'text', text: [`${name.toUpperCase()}-RESULT`] }
    ]
  }
}

async function setTheme(theme: 'light' | 'dark', page: Page): Promise<void> {
  await chat.bridge.call(configUpdateSettings, { patch: { theme } })
  await expect
    .poll(() => page.locator('html').getAttribute('class'))
    .toSatisfy((c: string | null) => (theme === 'dark') === Boolean(c?.includes('dark')))
}

/** Screenshots in both themes (ending in light) with an axe check of each. */
async function shootBothThemes(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(theme, page)
    await page.screenshot({ path: artifactPath(`${name}-${theme}.png`) })
    expect(await seriousA11yViolations(page)).toEqual([])
  }
  await setTheme('light', page)
}

const lastAssistant = (page: Page) => page.getByTestId('assistant-message').last()

/** The chat page, with a short default wait so a missing element fails with its name. */
async function open(): Promise<{ page: Page; errors: string[] }> {
  const opened = await openChat(browser, chat.host)
  opened.page.setDefaultTimeout(15_000)
  return opened
}

beforeAll(async () => {
  chat = await startChatHost(splitScript({ parent: parentReply, child: childReply }))
  outside = chat.outsideDir()
  gemini = await startFakeLlm({
    kind: 'gemini',
    script: () => ({
      steps: [
        { type: 'text', text: ['Here is ', 'your picture.'] },
        { type: 'image', mimeType: 'image/png', data: IMAGE.toString('base64') },
        { type: 'usage', promptTokens: 12, completionTokens: 30 }
      ]
    })
  })
  await chat.bridge.call(providersAdd, {
    provider: {
      id: 'fake-gemini',
      kind: 'gemini',
      name: 'Fake Gemini',
      baseUrl: gemini.baseUrl,
      apiKey: 'gemini-test-0123456789',
      models: [
        {
          id: 'gemini-fake-image',
          name: 'Gemini image fake',
          contextLength: 32_000,
          maxOutputTokens: 8192,
          vision: true,
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
  await gemini?.close()
})

describe('chat blocks against the served host and a fake provider', () => {
  it('shows one live row per subagent task, each opening its child chat nested under the parent', async () => {
    const { page, errors } = await open()
    await sendFromInput(page, 'split the work in two')
    await page.waitForURL(/#\/chat\//)
    const parentUrl = page.url()
    const parentId = parentUrl.split('/chat/')[1]
    const answer = lastAssistant(page)
    const rows = answer.getByTestId('subagent-row')
    // Both children run at once (parallel): each row shows its own task and live status.
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2)
    expect(await rows.nth(0).getByTestId('subagent-row-title').textContent()).toContain('Alpha survey')
    expect(await rows.nth(1).getByTestId('subagent-row-title').textContent()).toContain('Beta survey')
    // The call's own row says what it runs, and its progress doesn't start by repeating the mode.
    const orchestrator = answer.locator('[data-testid="tool-call"][data-tool="subagent_orchestrator"]')
    expect(await orchestrator.getByTestId('tool-call-summary').textContent()).toBe(
      'Alpha survey, Beta survey'
    )
    expect(await orchestrator.getByTestId('tool-call-server').textContent()).toContain('agent-subagents')
    await expect
      .poll(() => orchestrator.getByTestId('tool-call-progress').textContent())
      .toMatch(/^parallel · 2 subagents · /)
    expect((await orchestrator.getByTestId('tool-call-toggle').innerText()).replace(/\s+/g, ' ')).not.toMatch(
      /\b(\w+) \1\b/
    )
    await expect.poll(() => rows.nth(1).getAttribute('data-status'), { timeout: 10_000 }).toBe('running')
    // Alpha finishes first while Beta still works: the rows update one by one.
    await expect.poll(() => rows.nth(0).getAttribute('data-status'), { timeout: 10_000 }).toBe('completed')
    expect(await rows.nth(1).getAttribute('data-status')).toBe('running')
    await page.screenshot({ path: artifactPath('subagents-running-light.png') })
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 20_000 }).toMatch(/^(sent|error)$/)
    // An error names itself in the failure: its text is compared too.
    expect({
      status: await answer.getAttribute('data-status'),
      text: (await answer.textContent())?.slice(0, 600)
    }).toEqual({ status: 'sent', text: expect.any(String) })
    expect(await rows.nth(1).getAttribute('data-status')).toBe('completed')
    expect(await answer.getByTestId('markdown').last().textContent()).toContain('ALPHA-RESULT')
    await shootBothThemes(page, 'subagents')
    await chat.bridge.call(configUpdateSettings, { patch: { language: 'zh-CN', theme: 'dark' } })
    await expect.poll(() => rows.nth(0).getByTestId('subagent-row-status').textContent()).toBe('完成')
    await page.screenshot({ path: artifactPath('subagents-zh-dark.png') })
    await chat.bridge.call(configUpdateSettings, { patch: { language: 'en-US', theme: 'light' } })
    await expect.poll(() => rows.nth(0).getByTestId('subagent-row-status').textContent()).toBe('Done')

    // The row links to the child session: its chat opens and it is nested under the parent.
    const childId = await rows.nth(1).getAttribute('data-child-session-id')
    expect(childId).toBeTruthy()
    await rows.nth(1).getByTestId('subagent-row-link').click()
    await page.waitForURL(new RegExp(`#/chat/${childId}$`))
    await expect.poll(() => lastAssistant(page).textContent(), { timeout: 10_000 }).toContain('BETA-RESULT')
    const parentItem = page.locator(`[data-testid="session-item"][data-session-id="${parentId}"]`)
    const nested = page.locator(
      `[data-testid="session-item"][data-session-id="${parentId}"] ~ [data-testid="session-child"]`
    )
    await expect.poll(() => nested.count()).toBe(2)
    expect(await parentItem.count()).toBe(1)
    expect(
      await page
        .locator(`[data-testid="session-child"][data-session-id="${childId}"] a`)
        .getAttribute('aria-current')
    ).toBe('page')
    // Two children of one slot are told apart by their tasks; the slot stands beside each.
    expect(await nested.getByTestId('session-title').allTextContents()).toEqual(
      expect.arrayContaining(['Alpha survey', 'Beta survey'])
    )
    expect(await nested.getByTestId('session-slot').allTextContents()).toEqual(['Self', 'Self'])
    await shootBothThemes(page, 'subagent-child')

    // Back on the parent after a reload: the rows come from the stored run, links and all.
    await page.goto(parentUrl)
    await page.reload()
    const stored = lastAssistant(page).getByTestId('subagent-row')
    await expect.poll(() => stored.count(), { timeout: 10_000 }).toBe(2)
    expect(await stored.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')))).toEqual([
      'completed',
      'completed'
    ])
    expect(await stored.nth(1).getAttribute('data-child-session-id')).toBe(childId)
    expect(errors).toEqual([])
    await page.close()
  }, 120_000)

  it("asks in the parent's window for a subagent's permission, naming it; the row waits, then completes", async () => {
    const { page, errors } = await open()
    await sendFromInput(page, 'delegate a write please')
    const card = page.getByTestId('permission-card')
    await card.waitFor({ timeout: 15_000 })
    // Named by its task (slot · title), with the child's own call arguments.
    expect(await card.getByTestId('permission-subagent').textContent()).toContain('Self · Note writer')
    expect(await card.getByTestId('permission-paths').textContent()).toContain(
      join(outside, 'child-note.txt')
    )
    // The write shows the content it would write, before it is allowed.
    await expect
      .poll(() => card.getByTestId('file-preview-content').textContent())
      .toContain('from the child')
    expect(await card.getByTestId('file-preview-path').textContent()).toContain('child-note.txt')
    const row = lastAssistant(page).getByTestId('subagent-row')
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 10_000 }).toBe('waiting_permission')
    await shootBothThemes(page, 'subagent-permission')

    await card.getByTestId('permission-allow-once').click()
    await card.waitFor({ state: 'detached' })
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('completed')
    await expect.poll(() => lastAssistant(page).getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    expect(
      existsSync(join(outside, 'child-note.txt')) && readFileSync(join(outside, 'child-note.txt'), 'utf8')
    ).toBe('from the child')
    expect(await lastAssistant(page).getByTestId('markdown').last().textContent()).toContain('NOTE-WRITTEN')
    expect(errors).toEqual([])
    await page.close()
  })

  it("shows an MCP tool's progress on its row while it runs", async () => {
    await chat.bridge.call(mcpAdd, {
      server: {
        id: 'everything',
        name: 'Everything demo',
        type: 'stdio',
        command: process.execPath,
        args: [EVERYTHING, 'stdio'],
        enabled: true
      }
    })
    await expect
      .poll(
        async () =>
          (await chat.bridge.call(mcpList, {})).servers.find((s) => s.id === 'everything')?.status.state,
        { timeout: 30_000 }
      )
      .toBe('running')
    const { page, errors } = await open()
    await sendFromInput(page, 'run the slow tool')
    // MCP tools ask first; once allowed, the row shows the server's progress notifications.
    const card = page.getByTestId('permission-card')
    await card.waitFor({ timeout: 15_000 })
    // The card names the server as the user called it, with the id rules match on beside it.
    await expect.poll(() => card.getByTestId('permission-server-name').textContent()).toBe('Everything demo')
    expect(await card.getByTestId('permission-server-id').textContent()).toBe('everything')
    await page.screenshot({ path: artifactPath('mcp-permission-light.png') })
    await card.getByTestId('permission-allow-once').click()
    const tool = lastAssistant(page).locator(`[data-testid="tool-call"][data-tool="${LONG_OPERATION}"]`)
    await expect
      .poll(() => tool.getByTestId('tool-call-progress').textContent(), { timeout: 10_000 })
      .toMatch(/^[12]\/3$/)
    // The row says which server the tool comes from (its display name).
    expect(await tool.getByTestId('tool-call-name').textContent()).toBe(LONG_OPERATION)
    expect(await tool.getByTestId('tool-call-server').textContent()).toContain('Everything demo')
    await page.screenshot({ path: artifactPath('tool-progress-light.png') })
    await expect.poll(() => tool.getAttribute('data-status'), { timeout: 15_000 }).toBe('success')
    expect(await tool.getByTestId('tool-call-progress').count()).toBe(0)
    await expect.poll(() => lastAssistant(page).getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    expect(await lastAssistant(page).getByTestId('markdown').last().textContent()).toContain(
      'Long running operation completed'
    )
    await shootBothThemes(page, 'mcp-tool-row')
    // Stored with the block: a reload still names the server.
    await page.reload()
    await expect
      .poll(
        () =>
          lastAssistant(page)
            .locator(`[data-testid="tool-call"][data-tool="${LONG_OPERATION}"]`)
            .getByTestId('tool-call-server')
            .textContent(),
        { timeout: 10_000 }
      )
      .toContain('Everything demo')
    expect(errors).toEqual([])
    await page.close()
  }, 120_000)

  it("shows an MCP tool's image result in its row", async () => {
    // The everything server was added (and is running) by the test before.
    const { page, errors } = await open()
    await sendFromInput(page, 'show the tiny image')
    const card = page.getByTestId('permission-card')
    await card.waitFor({ timeout: 15_000 })
    await card.getByTestId('permission-allow-once').click()
    const tool = lastAssistant(page).locator(`[data-testid="tool-call"][data-tool="${TINY_IMAGE}"]`)
    await expect.poll(() => tool.getAttribute('data-status'), { timeout: 15_000 }).toBe('success')
    await expect.poll(() => lastAssistant(page).getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    await tool.getByTestId('tool-call-toggle').click()
    const image = tool.getByTestId('tool-result-image').locator('img').first()
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
        timeout: 10_000
      })
      .toBeGreaterThan(0)
    await shootBothThemes(page, 'mcp-image-result')
    expect(errors).toEqual([])
    await page.close()
  }, 60_000)

  it('renders an image the model sends, with alt text, and opens it larger on click', async () => {
    const { page, errors } = await open()
    await page.getByTestId('model-picker').selectOption({ label: 'Gemini image fake' })
    await sendFromInput(page, 'draw me a pattern')
    await page.waitForURL(/#\/chat\//)
    const answer = lastAssistant(page)
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    const image = answer.getByTestId('image-open').locator('img')
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(240)
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalHeight)).toBe(160)
    expect((await image.getAttribute('alt'))?.trim()).toBeTruthy()
    expect(await answer.getByTestId('markdown').first().textContent()).toContain('Here is your picture.')
    await shootBothThemes(page, 'image-block')

    await answer.getByTestId('image-open').click()
    const viewer = page.getByTestId('image-viewer')
    await viewer.waitFor()
    const large = viewer.locator('img')
    expect(await large.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(240)
    expect(
      await large.evaluate((img: HTMLImageElement) => img.getBoundingClientRect().width)
    ).toBeGreaterThan(await image.evaluate((img: HTMLImageElement) => img.getBoundingClientRect().width))
    expect(await large.getAttribute('alt')).toBe(await image.getAttribute('alt'))
    await shootBothThemes(page, 'image-viewer')
    await page.keyboard.press('Escape')
    await viewer.waitFor({ state: 'detached' })
    // Focus goes back to the image that opened the viewer.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('image-open')
    // The image is part of the stored message: a reload shows it again.
    await page.reload()
    const reloaded = lastAssistant(page).getByTestId('image-open').locator('img')
    await expect
      .poll(() => reloaded.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
        timeout: 10_000
      })
      .toBe(240)
    expect(errors).toEqual([])
    await page.close()
  })

  it('answers a single-choice question with one click on an option button', async () => {
    const { page, errors } = await open()
    await sendFromInput(page, 'pick a fruit for me')
    const card = page.getByTestId('question-card')
    await card.waitFor({ timeout: 15_000 })
    expect(await card.getByTestId('question-text').textContent()).toBe('Which fruit?')
    const pear = card.getByTestId('question-option-Pear')
    expect(await pear.evaluate((el) => el.tagName)).toBe('BUTTON')
    expect(await card.locator('input[type="checkbox"]').count()).toBe(0)
    await shootBothThemes(page, 'question-single')

    await pear.click()
    await card.waitFor({ state: 'detached' })
    const answer = lastAssistant(page)
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    const toolResult = String(openAiBody(chat.llm.generationRequests().at(-1)!.body).messages.at(-1)?.content)
    expect(toolResult).toContain('Pear')
    expect(toolResult).not.toContain('Apple')
    expect(await answer.getByTestId('action-block').textContent()).toContain('Pear')
    expect(await answer.getByTestId('markdown').last().textContent()).toContain('Tool answered:')
    expect(errors).toEqual([])
    await page.close()
  })

  it('tells the model when the user skips a question, and the answer continues', async () => {
    const { page, errors } = await open()
    await sendFromInput(page, 'ask and let me skip')
    const card = page.getByTestId('question-card')
    await card.waitFor({ timeout: 15_000 })
    expect(await card.getByTestId('question-custom').count()).toBe(0)
    await card.getByTestId('question-skip').click()
    await card.waitFor({ state: 'detached' })
    const answer = lastAssistant(page)
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    const body = openAiBody(chat.llm.generationRequests().at(-1)!.body)
    const toolMessage = body.messages.at(-1)
    expect(toolMessage?.role).toBe('tool')
    expect(String(toolMessage?.content)).toMatch(/skipped/i)
    expect(await answer.getByTestId('markdown').last().textContent()).toMatch(/Tool answered: .*skipped/i)
    await shootBothThemes(page, 'question-skipped')
    expect(errors).toEqual([])
    await page.close()
  })
})
