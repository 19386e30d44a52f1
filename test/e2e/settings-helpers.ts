import { expect } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { artifactPath } from './helpers/browser'
import { settled } from './helpers/settled'
import { seriousA11yViolations } from './helpers/a11y'
import type { ServedHost } from './helpers/host'

export { settled }

/**
 * Opens the app on a settings section.
 */
export async function openSettings(
  browser: Browser,
  host: ServedHost,
  section: string
): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(host.url)
  await page.getByTestId('sidebar').waitFor()
  await page.getByTestId('nav-settings').click()
  await gotoSection(page, section)
  return { page, errors }
}

export async function gotoSection(page: Page, section: string): Promise<void> {
  await page.getByTestId(`settings-nav-${section}`).click()
  await page.getByTestId(`settings-${section}`).waitFor()
}

/** Switches the theme on the General page and comes back to `section`. */
export async function setTheme(page: Page, theme: 'light' | 'dark', section: string): Promise<void> {
  await gotoSection(page, 'general')
  await page.getByTestId(`theme-${theme}`).click()
  await expect
    .poll(async () => ((await page.locator('html').getAttribute('class')) ?? '').includes('dark'))
    .toBe(theme === 'dark')
  await gotoSection(page, section)
}

/** Screenshot plus axe check, in the current theme, once the page has settled. */
export async function shootAndCheck(page: Page, name: string): Promise<void> {
  await settled(page)
  await page.screenshot({ path: artifactPath(`${name}.png`), fullPage: true })
  expect(await seriousA11yViolations(page), name).toEqual([])
}

export function relevantErrors(errors: string[]): string[] {
  // Failed calls the test provokes on purpose show up as console errors of the failed fetch only.
  return errors.filter((e) => !e.includes('favicon'))
}
