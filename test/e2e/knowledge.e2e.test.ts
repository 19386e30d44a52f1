import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { providersAdd } from '@shared/contracts/routes/providers.routes'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { knowledgeReindex } from '@shared/contracts/routes/knowledge.routes'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  callsReply,
  lastUserText,
  seriousA11yViolations,
  sendFromInput,
  startChatHost,
  textReply,
  toolCall,
  type ChatHost
} from './helpers/chatHost'
import { settled } from './helpers/settled'
import { startFakeEmbeddings, type FakeEmbeddingServer } from '../fixtures/llm/fakeEmbeddings'
import { KNOWLEDGE_FACTS, writeKnowledgeFolder } from '../fixtures/knowledge'

let chat: ChatHost
let embeddings: FakeEmbeddingServer
let browser: Browser
let folder: string

const QUESTION = 'When is the heron lighthouse lamp serviced?'
const ANSWER = 'The harbour crew services the lamp every thirteenth of March [1].'

beforeAll(async () => {
  chat = await startChatHost([
    // The first message makes the chat (bases are attached to a chat), then the question.
    textReply('Hello! Attach a knowledge base and ask away.'),
    callsReply(toolCall('k1', 'knowledge_search', { query: 'heron lighthouse lamp serviced' })),
    textReply(ANSWER)
  ])
  // Each embedding answer waits a little, so the run is slow enough to watch its progress bar.
  embeddings = await startFakeEmbeddings({ delayMs: 600 })
  await chat.bridge.call(providersAdd, {
    provider: {
      id: 'fake-embed',
      kind: 'openai-compatible',
      name: 'Fake embeddings',
      baseUrl: embeddings.baseUrl,
      apiKey: 'sk-embed-0123456789',
      models: [],
      fetchModels: false
    }
  })
  folder = await writeKnowledgeFolder(mkdtempSync(join(tmpdir(), 'deepchat-e2e-kb-')))
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await embeddings?.close()
  await chat?.stop()
  if (folder) rmSync(folder, { recursive: true, force: true })
})

async function openApp(width: number, height: number): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width, height } })
  const page = await context.newPage()
  page.setDefaultTimeout(20_000)
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(chat.host.url)
  await page.getByTestId('chat-input-text').waitFor()
  return { page, errors }
}

async function gotoKnowledge(page: Page): Promise<void> {
  await page.getByTestId('nav-settings').click()
  await page.getByTestId('settings-nav-knowledge').click()
  await page.getByTestId('settings-knowledge').waitFor()
}

async function look(page: Page, theme: 'light' | 'dark', language: 'en-US' | 'zh-CN'): Promise<void> {
  await chat.bridge.call(configUpdateSettings, { patch: { theme, language } })
  await expect
    .poll(async () => ((await page.locator('html').getAttribute('class')) ?? '').includes('dark'))
    .toBe(theme === 'dark')
  await expect.poll(() => page.locator('html').getAttribute('lang')).toBe(language)
  await settled(page)
}

async function shoot(page: Page, name: string): Promise<void> {
  await settled(page)
  await page.screenshot({ path: artifactPath(`${name}.png`) })
  expect(await seriousA11yViolations(page), name).toEqual([])
}

describe('knowledge bases', () => {
  let baseId = ''

  it('indexes a folder of PDF, DOCX and Markdown with a progress bar that reaches done, and finds the page a fact is on', async () => {
    const { page, errors } = await openApp(1280, 800)
    await gotoKnowledge(page)
    await page.getByTestId('knowledge-empty').waitFor()
    await page.getByTestId('knowledge-new').click()
    await page.getByTestId('knowledge-create-name').fill('Harbour manuals')
    // The browser host has no folder dialog: the typed path goes through main's picker.
    await page.getByTestId('knowledge-create-path').fill(folder)
    await page.getByTestId('knowledge-create-add-path').click()
    await expect.poll(() => page.getByTestId('knowledge-create-sources').textContent()).toContain(folder)
    await page.getByTestId('knowledge-create-embedding-provider').selectOption('fake-embed')
    await page.getByTestId('knowledge-create-embedding-model').fill('text-embedding-3-small')
    await page.getByTestId('knowledge-create-save').click()

    const card = page.getByTestId('knowledge-base')
    await card.waitFor()
    baseId = (await card.getAttribute('data-base-id')) ?? ''
    const progress = card.getByTestId('knowledge-progress')
    // Mid-run: the bar shows files and chunks as they are embedded.
    await expect.poll(() => progress.getAttribute('data-phase')).toMatch(/^(scanning|reading|embedding)$/)
    await page.screenshot({ path: artifactPath('knowledge-settings-indexing-1280-light.png') })
    await card.locator('[data-testid="knowledge-progress"][data-phase="done"]').waitFor({ timeout: 30_000 })
    expect(await progress.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100')
    await expect.poll(() => card.getAttribute('data-status')).toBe('idle')
    expect(await card.getByTestId('knowledge-base-files').textContent()).toBe('3')
    expect(Number(await card.getByTestId('knowledge-base-chunks').textContent())).toBeGreaterThanOrEqual(3)
    expect(await card.getByTestId('knowledge-base-model').textContent()).toContain('text-embedding-3-small')
    // The vectors came from the user's provider, with its key.
    expect(embeddings.requests.length).toBeGreaterThan(0)
    expect(embeddings.requests[0].headers.authorization).toBe('Bearer sk-embed-0123456789')

    // Try a search: the fact's own file and page come first.
    await page.getByTestId('knowledge-try-query').fill('heron lighthouse lamp serviced')
    await page.getByTestId('knowledge-try-run').click()
    const firstHit = page.getByTestId('knowledge-try-hit-link').first()
    await expect.poll(() => firstHit.textContent()).toBe(`${KNOWLEDGE_FACTS.pdf.file} · page 2`)
    await shoot(page, 'knowledge-settings-done-1280-light')
    await look(page, 'dark', 'en-US')
    await shoot(page, 'knowledge-settings-done-1280-dark')
    await look(page, 'light', 'zh-CN')
    await expect.poll(() => card.getByTestId('knowledge-base-status').textContent()).toBe('就绪')
    await shoot(page, 'knowledge-settings-done-1280-zh')
    await look(page, 'light', 'en-US')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('is usable at 800×600 in both themes', async () => {
    const { page, errors } = await openApp(800, 600)
    await gotoKnowledge(page)
    const card = page.getByTestId('knowledge-base')
    await card.waitFor()
    // Nothing sticks out sideways: the page scrolls only down.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    const actions = await card.getByTestId('knowledge-base-remove').boundingBox()
    expect(actions && actions.x + actions.width).toBeLessThanOrEqual(800)
    await shoot(page, 'knowledge-settings-800-light')
    // A full re-index (every chunk embedded again) is slow enough to see the bar at work.
    await look(page, 'dark', 'en-US')
    // Every phase the bar shows, recorded as it changes: a short run can pass a poll by.
    await page.evaluate(() => {
      const phases: string[] = []
      ;(window as unknown as { __phases: string[] }).__phases = phases
      new MutationObserver(() => {
        const phase = document.querySelector('[data-testid="knowledge-progress"]')?.getAttribute('data-phase')
        if (phase && phases.at(-1) !== phase) phases.push(phase)
      }).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-phase']
      })
    })
    await chat.bridge.call(knowledgeReindex, { baseId, full: true })
    await page.screenshot({ path: artifactPath('knowledge-settings-indexing-800-dark.png') })
    await card.locator('[data-testid="knowledge-progress"][data-phase="done"]').waitFor({ timeout: 30_000 })
    const phases = await page.evaluate(() => (window as unknown as { __phases: string[] }).__phases)
    expect(
      phases.some((phase) => /^(scanning|reading|embedding)$/.test(phase)),
      phases.join(' > ')
    ).toBe(true)
    await expect.poll(() => card.getAttribute('data-status')).toBe('idle')
    await shoot(page, 'knowledge-settings-800-dark')
    // The form for a new base fits too.
    await page.getByTestId('knowledge-new').click()
    await page.getByTestId('knowledge-create-path').fill(folder)
    await page.getByTestId('knowledge-create-add-path').click()
    await page.getByTestId('knowledge-create-sources').waitFor()
    await shoot(page, 'knowledge-create-800-dark')
    await look(page, 'light', 'en-US')
    await shoot(page, 'knowledge-create-800-light')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('a chat attaches the base, shows it as a chip, and the answer’s [1] opens the cited file at its page', async () => {
    const { page, errors } = await openApp(1280, 800)
    await sendFromInput(page, 'Hi')
    await expect
      .poll(() => page.getByTestId('assistant-message').last().getAttribute('data-status'))
      .toBe('sent')

    await page.getByTestId('tools-button').click()
    await page.getByTestId(`knowledge-toggle-${baseId}`).check()
    const chip = page.getByTestId('knowledge-chip')
    await expect.poll(() => chip.textContent()).toContain('Harbour manuals')
    // With a base attached the chat's model gets knowledge_search.
    await expect.poll(() => page.getByTestId('tool-toggle-knowledge_search').isVisible()).toBe(true)
    await shoot(page, 'knowledge-chat-tools-1280-light')
    await page.keyboard.press('Escape')
    await page.getByTestId('tools-popover').waitFor({ state: 'detached' })
    await shoot(page, 'knowledge-chat-chips-1280-light')

    await sendFromInput(page, QUESTION)
    // The question's own answer (until it shows, the last one is still the answer to "Hi").
    const answer = page.getByTestId('assistant-message').nth(1)
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 20_000 }).toBe('sent')
    // The tool's result went back to the model with the cited page's text.
    expect(lastUserText(chat.llm.requests[1].body)).toBe(QUESTION)
    expect(JSON.stringify(chat.llm.requests[2].body)).toContain(KNOWLEDGE_FACTS.pdf.text)

    const sources = answer.getByTestId('knowledge-sources')
    await sources.waitFor()
    expect(await sources.getByTestId('knowledge-source-link').first().textContent()).toBe(
      `${KNOWLEDGE_FACTS.pdf.file} · page 2`
    )
    expect(await sources.getByTestId('knowledge-source-snippet').first().textContent()).toContain(
      'heron lighthouse lamp'
    )
    await expect.poll(() => answer.getByTestId('content-block').last().textContent()).toContain('March [1]')

    // The answer's [1] is a link to that source: the viewer opens the PDF at page 2, marked.
    const pageUrl = page.url()
    await answer.locator('a.md-cite[data-cite="1"]').click()
    const viewer = page.getByTestId('knowledge-viewer')
    await viewer.waitFor()
    expect(page.url()).toBe(pageUrl)
    expect(await viewer.getByTestId('knowledge-viewer-path').textContent()).toBe(
      join(folder, KNOWLEDGE_FACTS.pdf.file)
    )
    expect(await viewer.getByTestId('knowledge-viewer-location').textContent()).toBe('page 2')
    const cited = viewer.locator('[data-cited]')
    await expect
      .poll(() => cited.allTextContents().then((t) => t.join(' ')))
      .toContain('heron lighthouse lamp')
    expect(await cited.first().isVisible()).toBe(true)
    // The file's text is text: nothing in it became markup.
    expect(await viewer.getByTestId('knowledge-viewer-text').locator('a, img, script, iframe').count()).toBe(
      0
    )
    await shoot(page, 'knowledge-viewer-1280-light')
    await look(page, 'dark', 'en-US')
    await shoot(page, 'knowledge-viewer-1280-dark')
    await page.setViewportSize({ width: 800, height: 600 })
    await shoot(page, 'knowledge-viewer-800-dark')
    await page.keyboard.press('Escape')
    await viewer.waitFor({ state: 'detached' })
    await shoot(page, 'knowledge-chat-800-dark')
    await look(page, 'light', 'en-US')
    await shoot(page, 'knowledge-chat-800-light')
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('re-indexes after a file changes and a file is added, and the counts follow', async () => {
    const { page, errors } = await openApp(1280, 800)
    await gotoKnowledge(page)
    const card = page.getByTestId('knowledge-base')
    await expect.poll(() => card.getAttribute('data-status')).toBe('idle')
    const chunksBefore = Number(await card.getByTestId('knowledge-base-chunks').textContent())
    writeFileSync(join(folder, 'tides.md'), '# Tides\n\nHigh tide at the heron lighthouse is at noon.\n')
    writeFileSync(
      join(folder, KNOWLEDGE_FACTS.md.file),
      `${Array.from({ length: 80 }, (_, i) => `Row ${i}: the greenhouse shelf ${i} holds basil and thyme.`).join('\n\n')}\n`
    )
    // A watcher may already have started the run; otherwise the button starts it.
    const reindex = card.getByTestId('knowledge-base-reindex')
    if (await reindex.isVisible()) await reindex.click()
    await expect
      .poll(() => card.getByTestId('knowledge-base-files').textContent(), { timeout: 30_000 })
      .toBe('4')
    await expect.poll(() => card.getAttribute('data-status'), { timeout: 30_000 }).toBe('idle')
    await expect
      .poll(async () => Number(await card.getByTestId('knowledge-base-chunks').textContent()), {
        timeout: 30_000
      })
      .toBeGreaterThan(chunksBefore)
    expect(errors).toEqual([])
    await page.context().close()
  })
})
