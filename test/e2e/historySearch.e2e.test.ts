import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { SqlitePresenter } from '../../src/main/presenter/sqlitePresenter'
import { TapePresenter } from '../../src/main/presenter/tapePresenter'
import { SessionPresenter } from '../../src/main/presenter/sessionPresenter'
import { Workspaces } from '../../src/main/presenter/sessionPresenter/workspaces'
import { launchBrowser } from './helpers/browser'
import { serve, type ServedHost } from './helpers/host'

const TURNS = 50
const NEEDLE_TURN = 3

let dataDir: string
let host: ServedHost
let browser: Browser
let page: Page
let needleMessageId = ''
let sessionId = ''
/** The user's and the assistant's message ids, turn by turn. */
const turnMessageIds: string[][] = []

/** A chat of 100 messages, written into the data folder before the host starts. */
function seed(): void {
  const sqlite = new SqlitePresenter({ file: join(dataDir, 'deepchat.db') })
  const sessions = new SessionPresenter({
    sqlite,
    tape: new TapePresenter({ sqlite }),
    events: { emit: () => {} },
    workspaces: new Workspaces({ dataDir })
  })
  const session = sessions.create({ title: 'Long chat about birds' })
  sessionId = session.id
  for (let i = 0; i < TURNS; i++) {
    const question = sessions.messages.appendUserMessage(session.id, { text: `Question ${i} about birds` })
    const answer = sessions.messages.createAssistantMessage(session.id)
    turnMessageIds.push([question.id, answer.id])
    const text =
      i === NEEDLE_TURN
        ? 'The <b>albatross</b> glides for hours without flapping; an Albatross can sleep in flight.'
        : `Answer ${i}: sparrows and finches.`
    sessions.messages.finalizeAssistantMessage(answer.id, {
      status: 'sent',
      blocks: [
        {
          id: `t${i}`,
          kind: 'tool_call',
          status: 'success',
          text: '',
          toolCall: {
            id: `call_${i}_0`,
            name: 'read',
            params: '{"path":"albatross-notes.md"}',
            response: 'x'
          }
        },
        { id: `c${i}`, kind: 'content', status: 'success', text }
      ]
    })
    if (i === NEEDLE_TURN) needleMessageId = answer.id
  }
  sqlite.close()
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-search-'))
  seed()
  host = await serve(dataDir)
  browser = await launchBrowser()
  page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
  await page.goto(host.url)
  await page.getByTestId('chat-input-text').waitFor()
})
afterAll(async () => {
  await browser?.close()
  await host?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

describe('history search', () => {
  it('shows one hit per message with its text, no ids, and the match marked', async () => {
    await page.getByTestId('history-search').fill('albatross')
    await page.getByTestId('history-search').press('Enter')
    const hits = page.getByTestId('search-hit')
    await hits.first().waitFor()
    expect(await hits.count()).toBe(1)
    const snippet = hits.first().getByTestId('search-snippet')
    const text = (await snippet.textContent())!
    expect(text).toContain('The <b>albatross</b> glides')
    expect(text).not.toMatch(/call_\d|tool_call|read|[0-9a-f]{8}-[0-9a-f]{4}-|assistant/)
    expect(await snippet.locator('mark').allTextContents()).toEqual(['albatross', 'Albatross'])
    // The model's markup is text, not elements.
    expect(await snippet.locator('b').count()).toBe(0)
  })

  it('opens the chat at that message, reading older pages until it is there', async () => {
    await page.getByTestId('search-hit').first().click()
    const target = page.getByTestId('message-list').locator(`[data-message-id="${needleMessageId}"]`)
    await target.waitFor()
    await page.locator('[data-focused="true"]').waitFor()
    expect(await page.locator('[data-focused="true"]').textContent()).toContain('glides for hours')
    const box = (await target.boundingBox())!
    expect(box.y).toBeGreaterThanOrEqual(0)
    expect(box.y).toBeLessThan(800)
    expect(page.url()).toContain(`message=${needleMessageId}`)
  })

  it('opens a chat at its newest messages without drawing the oldest of its first page first', async () => {
    await page.getByTestId('new-chat').click()
    await page.getByTestId('chat-welcome').waitFor()
    // Every message row the page ever adds while the chat opens.
    await page.evaluate(() => {
      const seen = new Set<string>()
      ;(window as unknown as { __seenMessages: Set<string> }).__seenMessages = seen
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes) {
            if (!(node instanceof Element)) continue
            for (const el of [node, ...node.querySelectorAll('[data-message-id]')]) {
              const id = el.getAttribute('data-message-id')
              if (id) seen.add(id)
            }
          }
      }).observe(document.body, { childList: true, subtree: true })
    })
    await page.locator(`[data-session-id="${sessionId}"] a`).click()
    const [, newestAnswer] = turnMessageIds[TURNS - 1]
    await page.getByTestId('message-list').locator(`[data-message-id="${newestAnswer}"]`).waitFor()
    const seen = await page.evaluate(() => [
      ...(window as unknown as { __seenMessages: Set<string> }).__seenMessages
    ])
    const turnOf = new Map(turnMessageIds.flatMap((ids, turn) => ids.map((id) => [id, turn] as const)))
    const seenTurns = seen.map((id) => turnOf.get(id)).filter((turn) => turn !== undefined)
    expect(seenTurns).toContain(TURNS - 1)
    // The first page holds the newest 60 messages (turns 20 to 49); a screen shows about ten.
    expect(Math.min(...seenTurns)).toBeGreaterThanOrEqual(TURNS - 15)
  })
})
