import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { artifactPath, launchBrowser } from './helpers/browser'
import { serve, type ServedHost } from './helpers/host'

let browser: Browser
let dataDir: string
const hosts: ServedHost[] = []

beforeAll(async () => {
  browser = await launchBrowser()
  dataDir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-'))
})

afterAll(async () => {
  await browser?.close()
  await Promise.all(hosts.map((h) => h.stop()))
  rmSync(dataDir, { recursive: true, force: true })
})

async function openApp(host: ServedHost): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 760 } })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(host.url)
  await page.getByTestId('sidebar').waitFor()
  return { page, errors }
}

describe('settings in the browser UI', () => {
  it('switches to zh-CN and dark, and keeps both across a reload and a host restart', async () => {
    const host = await serve(dataDir)
    hosts.push(host)
    const { page, errors } = await openApp(host)

    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-general').waitFor()
    expect(await page.locator('html').getAttribute('lang')).toBe('en-US')
    await page.screenshot({ path: artifactPath('settings-en-light.png') })

    await page.getByTestId('language-select').selectOption('zh-CN')
    await expect.poll(() => page.locator('html').getAttribute('lang')).toBe('zh-CN')
    await page.getByTestId('theme-dark').click()
    await expect.poll(() => page.locator('html').getAttribute('class')).toContain('dark')
    await expect.poll(() => page.getByTestId('settings-status').textContent()).toBe('已保存')

    await page.reload()
    await page.getByTestId('settings-general').waitFor()
    expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN')
    expect(await page.locator('html').getAttribute('class')).toContain('dark')
    expect(await page.getByTestId('settings-nav-general').textContent()).toContain('通用')
    expect(await page.getByTestId('theme-dark').getAttribute('aria-checked')).toBe('true')
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(background).not.toBe('rgb(255, 255, 255)')
    await page.screenshot({ path: artifactPath('settings-zh-dark.png') })

    const firstErrors = [...errors]
    await page.close()
    await host.stop()
    const restarted = await serve(dataDir)
    hosts.push(restarted)
    const again = await openApp(restarted)
    await again.page.getByTestId('nav-settings').click()
    await again.page.getByTestId('settings-general').waitFor()
    expect(await again.page.locator('html').getAttribute('lang')).toBe('zh-CN')
    expect(await again.page.locator('html').getAttribute('class')).toContain('dark')

    await again.page.getByTestId('settings-nav-about').click()
    await again.page.getByTestId('settings-about').waitFor()
    expect(await again.page.getByTestId('about-data-dir').textContent()).toBe(dataDir)
    expect(await again.page.getByTestId('about-node').textContent()).toBe(process.versions.node)
    await again.page.screenshot({ path: artifactPath('about-zh-dark.png') })

    expect(firstErrors.concat(again.errors).filter((e) => !e.includes('favicon'))).toEqual([])
  })

  it('shows nothing of the app to a browser without the token', async () => {
    const host = await serve(mkdtempSync(join(tmpdir(), 'deepchat-e2e-')))
    hosts.push(host)
    const page = await browser.newPage()
    await page.goto(host.origin + '/')
    // The bridge refused the connection: the app says it is offline and shows nothing it would read.
    await page.getByTestId('offline-banner').waitFor()
    expect(await page.getByTestId('settings-general').count()).toBe(0)
    expect(await page.getByTestId('language-select').count()).toBe(0)
  })
})
