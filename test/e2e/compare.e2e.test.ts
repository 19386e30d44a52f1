import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { providersAdd } from '@shared/contracts/routes/providers.routes'
import type { FakeResponse } from '../fixtures/llm/fakeLlm'
import { openAiBody, type OpenAiRequest } from '../fixtures/llm/openAiRequest'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  callsReply,
  type ChatHost,
  lastUserText,
  openChat,
  seriousA11yViolations,
  sendFromInput,
  startChatHost,
  textReply,
  toolCall
} from './helpers/chatHost'

let chat: ChatHost
let browser: Browser

const MODELS = ['model-a', 'model-b', 'model-c']
const PROMPT = 'Write your note into the folder.'
const ASKING_PROMPT = 'Write outside the folder.'
let outside = ''

/**
 * The chat's own model answers plainly. Each compare model writes `<model>.txt`, then streams its
 * answer in two parts with a 6 s pause between, so the three columns are seen streaming together
 * even on a loaded machine; model-c never finishes (it is stopped from its column).
 */
function reply(body: OpenAiRequest): FakeResponse {
  if (body.model === 'fake-model') return textReply('Chat answer.')
  const model = body.model
  if (lastUserText(body) === ASKING_PROMPT)
    return body.messages.at(-1)?.role === 'tool'
      ? textReply(`Asked and answered by ${model}.`)
      : callsReply(
          toolCall('w1', 'write', {
            path: model === 'model-a' ? join(outside, 'from-a.txt') : `${model}-asked.txt`,
            content: 'written'
          })
        )
  if (body.messages.at(-1)?.role !== 'tool')
    return callsReply(toolCall('w1', 'write', { path: `${model}.txt`, content: `by ${model}\n` }))
  const first = { type: 'text' as const, text: [`Part one from ${model}. `] }
  if (model === 'model-c') return { steps: [first, { type: 'stall' as const }] }
  return {
    steps: [
      first,
      { type: 'delay' as const, ms: 6_000 },
      { type: 'text' as const, text: [`Answer from ${model}.`] }
    ]
  }
}

const gitIn = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

async function setTheme(theme: 'light' | 'dark', page: Page): Promise<void> {
  await chat.bridge.call(configUpdateSettings, { patch: { theme } })
  await expect
    .poll(() => page.locator('html').getAttribute('class'))
    .toSatisfy((c: string | null) => (theme === 'dark') === Boolean(c?.includes('dark')))
}

async function shoot(page: Page, name: string): Promise<void> {
  for (const theme of ['light', 'dark'] as const) {
    await setTheme(theme, page)
    await page.screenshot({ path: artifactPath(`${name}-${theme}.png`) })
    expect(await seriousA11yViolations(page)).toEqual([])
  }
  await setTheme('light', page)
}

const column = (page: Page, model: string) =>
  page.locator(`[data-testid="compare-column"][data-model-id="${model}"]`)
const runFolders = () => readdirSync(join(chat.dataDir, 'scratch')).filter((n) => n.startsWith('compare-'))

beforeAll(async () => {
  chat = await startChatHost((request) => reply(openAiBody(request.body)))
  await chat.bridge.call(providersAdd, {
    provider: {
      id: 'multi',
      kind: 'openai',
      name: 'Multi',
      baseUrl: chat.llm.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: MODELS.map((id) => ({
        id,
        name: id.replace('model-', 'Model ').toUpperCase(),
        contextLength: 128_000,
        maxOutputTokens: 8192,
        vision: false,
        toolCalling: true,
        reasoning: false,
        enabled: true
      })),
      maxRetries: 0
    }
  })
  gitIn(chat.workspace, 'init', '-q', '-b', 'main')
  gitIn(chat.workspace, 'config', 'user.email', 't@example.com')
  gitIn(chat.workspace, 'config', 'user.name', 'T')
  writeFileSync(join(chat.workspace, 'README.md'), 'hello\n')
  gitIn(chat.workspace, 'add', '.')
  gitIn(chat.workspace, 'commit', '-q', '-m', 'start')
  outside = chat.outsideDir()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

describe('compare runs across models', () => {
  it('streams three columns at once in their own worktrees, stops one alone, and keeps one into the chat', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    await page.setViewportSize({ width: 1280, height: 800 })
    await sendFromInput(page, 'hello')
    await expect
      .poll(() => page.getByTestId('assistant-message').last().textContent())
      .toContain('Chat answer.')
    const sessionId = /\/chat\/([^/?#]+)/.exec(page.url())![1]

    await page.getByTestId('chat-input-text').fill(PROMPT)
    await page.getByTestId('compare-open').click()
    for (const model of MODELS) await page.getByTestId(`compare-model-${model}`).check()
    await page.getByTestId('compare-send').click()
    await page.getByTestId('compare-panel').waitFor()
    expect(await page.getByTestId('compare-column').count()).toBe(3)

    // All three stream at once: each column shows its first part while every run is still running.
    await expect
      .poll(
        async () =>
          Promise.all(
            MODELS.map(async (m) => {
              const col = column(page, m)
              const text = (await col.getByTestId('compare-answer').textContent()) ?? ''
              return (
                (await col.getAttribute('data-status')) === 'running' && text.includes(`Part one from ${m}`)
              )
            })
          ),
        { timeout: 20_000 }
      )
      .toEqual([true, true, true])
    expect(await page.getByTestId('chat-input-text').inputValue()).toBe('')
    await shoot(page, 'compare-streaming-1280')

    // Each run's write landed in its own worktree, none in the chat's folder.
    const folders = runFolders()
    expect(folders).toHaveLength(3)
    const written = folders.map((f) =>
      readdirSync(join(chat.dataDir, 'scratch', f))
        .filter((n) => n.endsWith('.txt'))
        .sort()
    )
    expect(written.flat().sort()).toEqual(MODELS.map((m) => `${m}.txt`))
    expect(written.every((w) => w.length === 1)).toBe(true)
    expect(gitIn(chat.workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(4)
    for (const m of MODELS) expect(existsSync(join(chat.workspace, `${m}.txt`))).toBe(false)

    // Stop model-c alone: the other two finish.
    await column(page, 'model-c').getByTestId('compare-stop').click()
    await expect.poll(() => column(page, 'model-c').getAttribute('data-status')).toBe('cancelled')
    for (const m of ['model-a', 'model-b'])
      await expect
        .poll(() => column(page, m).getAttribute('data-status'), { timeout: 20_000 })
        .toBe('completed')
    expect(await column(page, 'model-c').getByTestId('compare-keep').count()).toBe(0)
    const b = column(page, 'model-b')
    expect(await b.getByTestId('compare-answer').textContent()).toContain('Answer from model-b.')
    expect(await b.getByTestId('compare-tool-calls').textContent()).toContain('write')
    await b.getByTestId('compare-files').locator('summary').click()
    expect(await b.getByTestId('compare-file').textContent()).toContain('model-b.txt')
    expect(await b.getByTestId('compare-diff').textContent()).toContain('+by model-b')
    expect(await b.getByTestId('compare-stats').textContent()).toMatch(/Time \d+\.\d s/)
    await shoot(page, 'compare-done-1280')
    await page.setViewportSize({ width: 800, height: 600 })
    // Stacked on a narrow window: the columns are one above the other.
    const [boxA, boxB] = await Promise.all([column(page, 'model-a').boundingBox(), b.boundingBox()])
    expect(boxB!.y).toBeGreaterThan(boxA!.y + boxA!.height - 1)
    await shoot(page, 'compare-done-800')
    await page.setViewportSize({ width: 1280, height: 800 })

    // Keep model-b: only its change reaches the folder, its answer shows in the chat, the rest go.
    await b.getByTestId('compare-keep').click()
    await page.getByTestId('compare-panel').waitFor({ state: 'detached' })
    await expect
      .poll(() => page.getByTestId('assistant-message').last().textContent())
      .toContain('Answer from model-b.')
    expect(readFileSync(join(chat.workspace, 'model-b.txt'), 'utf8')).toBe('by model-b\n')
    expect(existsSync(join(chat.workspace, 'model-a.txt'))).toBe(false)
    expect(existsSync(join(chat.workspace, 'model-c.txt'))).toBe(false)
    expect(gitIn(chat.workspace, 'worktree', 'list').trim().split('\n')).toHaveLength(1)
    expect(runFolders()).toEqual([])
    await shoot(page, 'compare-kept-1280')

    // The chat continues from the kept answer; the other runs are not in its context.
    const before = chat.llm.generationRequests().length
    await sendFromInput(page, 'And next?')
    await expect.poll(() => chat.llm.generationRequests().length).toBeGreaterThan(before)
    const next = openAiBody(chat.llm.generationRequests()[before].body)
    expect(next.model).toBe('fake-model')
    const wire = JSON.stringify(next.messages)
    expect(wire).toContain(PROMPT)
    expect(wire).toContain('Answer from model-b.')
    expect(wire).not.toContain('from model-a')
    expect(wire).not.toContain('from model-c')
    expect(sessionId).toBeTruthy()
    expect(errors).toEqual([])
    await page.close()
  })

  it('shows a run’s permission request in its column, named by its model, and resumes it on Allow once', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    await page.setViewportSize({ width: 1280, height: 800 })
    await sendFromInput(page, 'hello again')
    await expect
      .poll(() => page.getByTestId('assistant-message').last().textContent())
      .toContain('Chat answer.')
    await page.getByTestId('chat-input-text').fill(ASKING_PROMPT)
    await page.getByTestId('compare-open').click()
    for (const model of ['model-a', 'model-b']) await page.getByTestId(`compare-model-${model}`).check()
    await page.getByTestId('compare-send').click()
    const a = column(page, 'model-a')
    const card = a.getByTestId('compare-interaction')
    await card.waitFor({ timeout: 20_000 })
    expect(await card.textContent()).toContain('MODEL A asks')
    expect(await card.textContent()).toContain('from-a.txt')
    expect(await column(page, 'model-b').getByTestId('compare-interaction').count()).toBe(0)
    await expect
      .poll(() => column(page, 'model-b').getAttribute('data-status'), { timeout: 20_000 })
      .toBe('completed')
    expect(existsSync(join(outside, 'from-a.txt'))).toBe(false)
    await shoot(page, 'compare-asks-1280')
    await card.getByTestId('compare-allow').click()
    await expect.poll(() => a.getAttribute('data-status'), { timeout: 20_000 }).toBe('completed')
    expect(await a.getByTestId('compare-answer').textContent()).toContain('Asked and answered by model-a.')
    expect(readFileSync(join(outside, 'from-a.txt'), 'utf8')).toBe('written')
    await page.getByTestId('compare-discard').click()
    await page.getByTestId('compare-panel').waitFor({ state: 'detached' })
    expect(existsSync(join(chat.workspace, 'model-b-asked.txt'))).toBe(false)
    expect(runFolders()).toEqual([])
    expect(errors).toEqual([])
    await page.close()
  })
})
