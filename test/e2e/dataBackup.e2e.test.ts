import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { SqlitePresenter } from '../../src/main/presenter/sqlitePresenter'
import { TapePresenter } from '../../src/main/presenter/tapePresenter'
import { SessionPresenter } from '../../src/main/presenter/sessionPresenter'
import { Workspaces } from '../../src/main/presenter/sessionPresenter/workspaces'
import { launchBrowser } from './helpers/browser'
import { serve, type ServedHost } from './helpers/host'

const TITLES = ['Garden plans', 'Bread recipes', 'Chess openings']
const dirs: string[] = []
const hosts: ServedHost[] = []
let browser: Browser

function seed(dataDir: string): void {
  const sqlite = new SqlitePresenter({ file: join(dataDir, 'deepchat.db') })
  const sessions = new SessionPresenter({
    sqlite,
    tape: new TapePresenter({ sqlite }),
    events: { emit: () => {} },
    workspaces: new Workspaces({ dataDir })
  })
  for (const title of TITLES) {
    const chat = sessions.create({ title })
    sessions.messages.appendUserMessage(chat.id, { text: `Tell me about ${title.toLowerCase()}` })
  }
  sqlite.close()
}

function newDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-backup-'))
  dirs.push(dir)
  return dir
}

async function openApp(dataDir: string): Promise<Page> {
  const host = await serve(dataDir)
  hosts.push(host)
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
  await page.goto(host.url)
  await page.getByTestId('chat-input-text').waitFor()
  return page
}

const sidebarTitles = (page: Page) =>
  page
    .locator('[data-session-id] [data-testid="session-link"]')
    .evaluateAll((links) => links.map((l) => (l.textContent ?? '').trim()).sort())

beforeAll(async () => {
  browser = await launchBrowser()
})
afterAll(async () => {
  await browser?.close()
  for (const host of hosts) await host.stop()
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('backup and restore', () => {
  it('backs up, restores into an empty data folder, and the open page shows the same chats once the host has rebuilt its back end', async () => {
    const source = newDir()
    seed(source)
    const page = await openApp(source)
    await page
      .locator('[data-session-id]')
      .nth(TITLES.length - 1)
      .waitFor()
    const before = await sidebarTitles(page)
    expect(before).toEqual([...TITLES].sort())

    await page.getByTestId('nav-settings').click()
    // In the browser the backup is a download (a copy stays in the host's backup folder).
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('backup-now').click()
    ])
    const archive = join(newDir(), download.suggestedFilename())
    await download.saveAs(archive)
    expect(archive).toMatch(/deepchat-backup-.*\.tar\.gz$/)
    await page.getByTestId('backup-status').filter({ hasText: 'Backup downloaded' }).waitFor()

    const target = newDir()
    const fresh = await openApp(target)
    expect(await fresh.locator('[data-session-id]').count()).toBe(0)
    await fresh.getByTestId('nav-settings').click()
    // The restore is an upload, checked before the user is asked.
    await fresh.getByTestId('restore-upload').setInputFiles(archive)
    await fresh.getByTestId('restore-upload-status').filter({ hasText: 'is a readable backup' }).waitFor()
    // Nothing happens before the user confirms.
    expect(existsSync(join(target, 'restore-pending.tar.gz'))).toBe(false)
    await fresh.getByTestId('restore-confirm').click()
    await fresh.getByTestId('restore-status').filter({ hasText: 'restarts now' }).waitFor()

    // The host rebuilds its back end on the restored files by itself, and the open page reloads
    // when it reconnects: the same tab shows the same chats, nobody restarted anything.
    await fresh
      .locator('[data-session-id]')
      .nth(TITLES.length - 1)
      .waitFor({ timeout: 30_000 })
    expect(await sidebarTitles(fresh)).toEqual(before)
    expect(existsSync(join(target, 'restore-pending.tar.gz'))).toBe(false)
    // A new tab on the same host sees them too.
    const again = await browser.newPage({ viewport: { width: 1200, height: 800 } })
    await again.goto(hosts.at(-1)!.url)
    await again
      .locator('[data-session-id]')
      .nth(TITLES.length - 1)
      .waitFor()
    expect(await sidebarTitles(again)).toEqual(before)
  })

  it('refuses an uploaded file that is not a backup before asking anything', async () => {
    const dir = newDir()
    const page = await openApp(dir)
    await page.getByTestId('nav-settings').click()
    const junk = join(newDir(), 'holiday.tar.gz')
    writeFileSync(junk, 'not an archive')
    await page.getByTestId('restore-upload').setInputFiles(junk)
    await page.getByTestId('restore-upload-status').filter({ hasText: 'not a readable backup' }).waitFor()
    expect(await page.getByTestId('restore-confirm').count()).toBe(0)
    expect(existsSync(join(dir, 'restore-pending.tar.gz'))).toBe(false)
  })
})
