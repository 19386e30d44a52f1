import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { SqlitePresenter } from '../../src/main/presenter/sqlitePresenter'
import { TapePresenter } from '../../src/main/presenter/tapePresenter'
import { SessionPresenter } from '../../src/main/presenter/sessionPresenter'
import { Workspaces } from '../../src/main/presenter/sessionPresenter/workspaces'
import { launchBrowser } from './helpers/browser'
import { serve, type ServedHost } from './helpers/host'

let dataDir: string
let host: ServedHost
let browser: Browser
let page: Page
let sessionId = ''

const TURNS = [
  ['How do I reverse a list in Python?', 'Use slicing:\n\n```python\nreversed_list = items[::-1]\n```'],
  ['And in place?', 'Call `items.reverse()`: it returns **None** and changes the list.']
]

function seed(): void {
  const sqlite = new SqlitePresenter({ file: join(dataDir, 'deepchat.db') })
  const sessions = new SessionPresenter({
    sqlite,
    tape: new TapePresenter({ sqlite }),
    events: { emit: () => {} },
    workspaces: new Workspaces({ dataDir })
  })
  const session = sessions.create({ title: 'Python lists' })
  sessionId = session.id
  for (const [question, answer] of TURNS) {
    sessions.messages.appendUserMessage(session.id, { text: question })
    const reply = sessions.messages.createAssistantMessage(session.id)
    sessions.messages.finalizeAssistantMessage(reply.id, {
      status: 'sent',
      blocks: [{ id: 'c', kind: 'content', status: 'success', text: answer, createdAt: 1, updatedAt: 1 }]
    })
  }
  sqlite.close()
}

async function download(format: string): Promise<{ name: string; path: string; text: string }> {
  await page.getByTestId('chat-export').click()
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(`chat-export-${format}`).click()
  ])
  const path = join(dataDir, `download-${format}`)
  await file.saveAs(path)
  return { name: file.suggestedFilename(), path, text: readFileSync(path, 'utf8') }
}

/** The messages as the chat page shows them, in order. */
async function shownMessages(): Promise<string[]> {
  const list = page.getByTestId('message-list')
  await list
    .locator('[data-testid="assistant-message"]')
    .nth(TURNS.length - 1)
    .waitFor()
  // Answers show their markdown source until the renderer is loaded: read them rendered.
  await list.locator('[data-testid="assistant-message"] .md-code').first().waitFor()
  await list.locator('[data-testid="assistant-message"] strong').first().waitFor()
  return list
    .locator('[data-message-id]')
    .evaluateAll((rows) => rows.map((r) => (r.textContent ?? '').trim()))
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-export-'))
  seed()
  host = await serve(dataDir)
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1200, height: 800 }, acceptDownloads: true })
  await page.goto(host.url)
  await page.getByTestId('chat-input-text').waitFor()
})
afterAll(async () => {
  await browser?.close()
  await host?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('chat export', () => {
  let original: string[] = []
  let json = ''

  it('exports the open chat as Markdown, HTML and JSON downloads', async () => {
    await page.locator(`[data-session-id="${sessionId}"] [data-testid="session-link"]`).click()
    await page.getByTestId('chat-title').filter({ hasText: 'Python lists' }).waitFor()
    original = await shownMessages()

    const md = await download('markdown')
    expect(md.name).toBe('Python lists.md')
    expect(md.text).toContain('# Python lists')
    expect(md.text).toContain('```python\nreversed_list = items[::-1]\n```')

    const html = await download('html')
    expect(html.name).toBe('Python lists.html')
    expect(html.text).toContain('<span class="hljs-')
    expect(html.text).toContain(`default-src 'none'`)

    const exported = await download('json')
    json = exported.path
    expect(JSON.parse(exported.text).messages).toHaveLength(4)
  })

  it('imports the JSON export from Settings into a new chat with the same messages', async () => {
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('chat-import-file').setInputFiles(json)
    await page.waitForURL((url) => /#\/chat\/[^/]+$/.test(url.hash) && !url.hash.endsWith(sessionId))
    await page.getByTestId('chat-title').filter({ hasText: 'Python lists' }).waitFor()
    expect(await shownMessages()).toEqual(original)
  })
})
