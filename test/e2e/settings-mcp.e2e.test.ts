import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from './helpers/browser'
import { serve, type ServedHost } from './helpers/host'
import { gotoSection, openSettings, relevantErrors, setTheme, shootAndCheck } from './settings-helpers'

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

let browser: Browser
let dataDir: string
let host: ServedHost

beforeAll(async () => {
  browser = await launchBrowser()
  dataDir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-mcp-'))
  host = await serve(dataDir)
})

afterAll(async () => {
  await browser?.close()
  await host?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

const card = (page: Page, name: string) =>
  page.locator('[data-testid^="mcp-card-"]', { has: page.getByRole('heading', { name, exact: true }) })

async function addStdioServer(page: Page, name: string, command: string, args: string[]): Promise<void> {
  await page.getByTestId('mcp-add').click()
  await page.getByTestId('mcp-form').waitFor()
  await page.getByTestId('mcp-form-name').fill(name)
  await page.getByTestId('mcp-form-description').fill(`${name} server added by the e2e test`)
  await page.getByTestId('mcp-form-command').fill(command)
  await page.getByTestId('mcp-form-args').fill(args.join('\n'))
  await page.getByTestId('mcp-form-submit').click()
  await page.getByTestId('mcp-form').waitFor({ state: 'detached' })
}

describe('MCP servers settings in the browser', () => {
  it('adds server-everything through the form, lists its tools and calls echo through the permission path', async () => {
    const { page, errors } = await openSettings(browser, host, 'mcp')
    await page.getByTestId('mcp-grid').waitFor()
    await addStdioServer(page, 'everything', process.execPath, [EVERYTHING, 'stdio'])

    const everything = card(page, 'everything')
    await expect
      .poll(() => everything.locator('[data-state]').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('running')
    await shootAndCheck(page, 'mcp-list-light')

    await everything.getByRole('button', { name: 'Tools & details' }).click()
    await page.getByTestId('mcp-panel').waitFor()
    await page.getByTestId('mcp-tool-echo').waitFor()
    expect(await page.locator('[data-testid^="mcp-tool-"][data-testid$="echo"]').count()).toBeGreaterThan(0)
    expect(await page.getByTestId('mcp-tool-list').locator('li').count()).toBeGreaterThan(3)

    await page.getByTestId('mcp-tool-try-echo').click()
    await page.getByTestId('param-message').fill('hello from the tools panel')
    await page.getByTestId('tool-run-echo').click()
    // Not auto-approved and no rule yet: the call stops at the permission gate.
    await page.getByTestId('tool-approval-echo').waitFor()
    expect(await page.getByTestId('tool-result-echo').count()).toBe(0)
    await shootAndCheck(page, 'mcp-tool-approval-light')
    await page.getByTestId('tool-allow-always-echo').click()
    await expect
      .poll(() => page.getByTestId('tool-result-echo').textContent(), { timeout: 15_000 })
      .toContain('hello from the tools panel')
    await shootAndCheck(page, 'mcp-tool-result-light')

    await page.getByTestId('mcp-tab-logs').click()
    await page.getByTestId('mcp-logs-tab').waitFor()
    await page.getByTestId('mcp-tab-resources').click()
    await page.getByTestId('mcp-resource-item').first().waitFor()
    await page.getByTestId('mcp-resource-item').first().click()
    await expect
      .poll(() => page.getByTestId('mcp-resource-contents').textContent())
      .toMatch(/[a-z]+:\/\/\S+ · /)
    await page.getByTestId('mcp-tab-prompts').click()
    await page.getByTestId('mcp-prompts-tab').waitFor()
    await page.keyboard.press('Escape')
    await page.getByTestId('mcp-panel').waitFor({ state: 'detached' })

    await setTheme(page, 'dark', 'mcp')
    await shootAndCheck(page, 'mcp-list-dark')
    await card(page, 'everything').getByRole('button', { name: 'Tools & details' }).click()
    await page.getByTestId('mcp-tool-echo').waitFor()
    await shootAndCheck(page, 'mcp-tools-dark')
    await page.keyboard.press('Escape')
    await setTheme(page, 'light', 'mcp')
    expect(relevantErrors(errors)).toEqual([])
    await page.context().close()
  }, 120_000)

  it('lists the always-allow rule the tools panel stored, and revokes it', async () => {
    const { page, errors } = await openSettings(browser, host, 'permissions')
    const row = page.locator('[data-rule-row]', { hasText: 'everything/echo' })
    await row.waitFor()
    expect(await row.textContent()).toContain('Allow')
    expect(await row.textContent()).toContain('MCP tool')
    await page.getByTestId('permission-mode-accept_edits').check()
    await expect.poll(() => page.getByTestId('permissions-status').textContent()).toBe('Saved')
    await shootAndCheck(page, 'permissions-light')
    await setTheme(page, 'dark', 'permissions')
    await shootAndCheck(page, 'permissions-dark')
    await setTheme(page, 'light', 'permissions')

    await page
      .locator('[data-rule-row]', { hasText: 'everything/echo' })
      .getByRole('button', { name: /Revoke/ })
      .click()
    await page.getByTestId('rules-empty').waitFor()
    await page.reload()
    await page.getByTestId('settings-permissions').waitFor()
    await page.getByTestId('rules-empty').waitFor()
    expect(await page.getByTestId('permission-mode-accept_edits').isChecked()).toBe(true)

    // Revoked means the next test call asks again.
    await gotoSection(page, 'mcp')
    await card(page, 'everything').getByRole('button', { name: 'Tools & details' }).click()
    await page.getByTestId('mcp-tool-try-echo').click()
    await page.getByTestId('param-message').fill('again')
    await page.getByTestId('tool-run-echo').click()
    await page.getByTestId('tool-approval-echo').waitFor()
    expect(relevantErrors(errors)).toEqual([])
    await page.context().close()
  }, 120_000)

  it('imports a Claude Desktop JSON with two servers', async () => {
    const { page } = await openSettings(browser, host, 'mcp')
    const json = JSON.stringify({
      mcpServers: {
        'imported-stdio': {
          command: process.execPath,
          args: [EVERYTHING, 'stdio'],
          env: { API_TOKEN: 'secret-token-value' }
        },
        'imported-http': { url: 'http://127.0.0.1:9/mcp' }
      }
    })
    await page.getByTestId('mcp-import-open').click()
    await page.getByTestId('mcp-import-json').fill(json)
    await shootAndCheck(page, 'mcp-import-light')
    await page.getByTestId('mcp-import-submit').click()
    await expect
      .poll(() => page.getByTestId('mcp-import-result').textContent())
      .toContain('2 servers imported')
    await page.keyboard.press('Escape')
    await card(page, 'imported-stdio').waitFor()
    await card(page, 'imported-http').waitFor()
    await expect
      .poll(() => card(page, 'imported-stdio').locator('[data-state]').getAttribute('data-state'), {
        timeout: 30_000
      })
      .toBe('running')

    // The secret env value is masked in the edit form and in the export.
    await card(page, 'imported-stdio').getByRole('button', { name: 'Edit' }).click()
    expect(await page.getByTestId('mcp-env-value-0').inputValue()).not.toContain('secret-token-value')
    expect(await page.getByTestId('mcp-env-value-0').getAttribute('type')).toBe('password')
    await page.keyboard.press('Escape')
    await page.getByTestId('mcp-export-open').click()
    const exported = await page.getByTestId('mcp-export-json').inputValue()
    expect(Object.keys(JSON.parse(exported).mcpServers)).toEqual(
      expect.arrayContaining(['everything', 'imported-stdio', 'imported-http'])
    )
    expect(exported).not.toContain('secret-token-value')
    await page.keyboard.press('Escape')

    // A remote server without a static token signs in with OAuth: the panel shows its state.
    await card(page, 'imported-http').getByRole('button', { name: 'Tools & details' }).click()
    await page.getByTestId('mcp-oauth-signed-out').waitFor()
    await page.getByTestId('mcp-oauth-sign-in').waitFor()
    await shootAndCheck(page, 'mcp-oauth-light')
    await page.keyboard.press('Escape')
    await page.getByTestId('mcp-panel').waitFor({ state: 'detached' })

    // Search and filter.
    await page.getByTestId('mcp-search').fill('imported')
    await expect.poll(() => page.locator('[data-testid^="mcp-card-"]').count()).toBe(2)
    await page.getByTestId('mcp-search').fill('')
    const running = await page.locator('[data-state="running"]').count()
    await page.getByTestId('mcp-filter-running').click()
    await expect.poll(() => page.locator('[data-testid^="mcp-card-"]').count()).toBe(running)
    expect(
      await page.locator('[data-testid^="mcp-card-"] [data-state]:not([data-state="running"])').count()
    ).toBe(0)
    await page.getByTestId('mcp-filter-all').click()
    await page.context().close()
  }, 120_000)

  it('shows the error state with its message for a server whose command does not exist', async () => {
    const { page } = await openSettings(browser, host, 'mcp')
    await addStdioServer(page, 'broken', '/nonexistent/no-such-mcp-server', [])
    const broken = card(page, 'broken')
    await expect
      .poll(() => broken.locator('[data-state]').getAttribute('data-state'), { timeout: 30_000 })
      .toBe('error')
    const message = await broken.locator('[role="alert"]').textContent()
    expect(message?.trim().length).toBeGreaterThan(0)
    expect(message).toMatch(/ENOENT|not found|no-such-mcp-server|spawn/i)
    await shootAndCheck(page, 'mcp-error-light')
    await setTheme(page, 'dark', 'mcp')
    await shootAndCheck(page, 'mcp-error-dark')
    await setTheme(page, 'light', 'mcp')
    await page.context().close()
  }, 120_000)
})
