import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { launchBrowser } from './helpers/browser'
import { serve, type ServedHost } from './helpers/host'
import { openSettings, relevantErrors, shootAndCheck } from './settings-helpers'
import { registryItem, startFakeRegistry, type FakeRegistry } from '../fixtures/registry/fakeRegistry'
import {
  ECHO_PACKAGE_DIR,
  ECHO_PACKAGE_NAME,
  packPackage,
  startFakeNpmRegistry,
  type FakeNpmRegistry
} from '../fixtures/registry/fakeNpm'

let browser: Browser
let dataDir: string
let home: string
let host: ServedHost
let registry: FakeRegistry
let npm: FakeNpmRegistry

const ECHO = 'io.github.deepchat/echo'

beforeAll(async () => {
  const tarball = await packPackage(ECHO_PACKAGE_DIR, '1.0.0')
  npm = await startFakeNpmRegistry([
    { name: ECHO_PACKAGE_NAME, version: '1.0.0', tarball, bin: { [ECHO_PACKAGE_NAME]: 'server.mjs' } }
  ])
  const filler = Array.from({ length: 34 }, (_, n) =>
    registryItem({
      name: `io.github.acme/tool-${String(n).padStart(2, '0')}`,
      title: `Acme tool ${n}`,
      description: `A server for the paging test, number ${n}, with a description long enough to wrap on a narrow window`,
      version: `0.${n}.0`,
      packages: [
        {
          registryType: 'pypi',
          identifier: `acme-tool-${n}`,
          version: `0.${n}.0`,
          transport: { type: 'stdio' }
        }
      ]
    })
  )
  registry = await startFakeRegistry({
    items: [
      registryItem({
        name: ECHO,
        title: 'Echo',
        description: 'Echoes text back (the registry e2e fixture)',
        version: '1.0.0',
        repository: { url: 'https://github.com/deepchat/echo', source: 'github' },
        websiteUrl: 'javascript:alert(1)',
        packages: [
          {
            registryType: 'npm',
            registryBaseUrl: npm.url,
            identifier: ECHO_PACKAGE_NAME,
            version: '1.0.0',
            transport: { type: 'stdio' },
            environmentVariables: [
              {
                name: 'FIXTURE_GREETING',
                description: 'What the server says',
                isRequired: true,
                isSecret: true
              }
            ]
          },
          {
            registryType: 'npm',
            identifier: 'evil; rm -rf ~',
            version: '1.0.0',
            transport: { type: 'stdio' }
          }
        ],
        remotes: [
          {
            type: 'streamable-http',
            url: 'https://echo.deepchat.example/mcp',
            headers: [{ name: 'X-Api-Key', description: 'Your key', isRequired: true, isSecret: true }]
          }
        ]
      }),
      ...filler
    ]
  })
  browser = await launchBrowser()
  dataDir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-registry-'))
  // A home of its own: npx installs into a fresh cache from the fake npm registry.
  home = mkdtempSync(join(tmpdir(), 'deepchat-e2e-registry-home-'))
  host = await serve(dataDir, {
    HOME: home,
    DEEPCHAT_TEST_REGISTRY_LOOPBACK: '1',
    npm_config_update_notifier: 'false'
  })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await host?.stop()
  await registry?.close()
  await npm?.close()
  rmSync(dataDir, { recursive: true, force: true })
  rmSync(home, { recursive: true, force: true })
})

async function openBrowser(page: Page): Promise<void> {
  await page.getByTestId('mcp-registry-open').click()
  await page.getByTestId('mcp-registry').waitFor()
}

/** Nothing wider than the window: no horizontal scrolling at this size. */
async function fitsWidth(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(overflow).toBeLessThanOrEqual(0)
}

describe('MCP registry in the browser, through the headless host', () => {
  it('names the registry, searches as you type, pages, shows trust and installs the npm package with its secret variable', async () => {
    const { page, errors } = await openSettings(browser, host, 'mcp')
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.getByTestId('mcp-grid').waitFor()
    await openBrowser(page)

    // The official registry by default; this test names its own.
    await expect
      .poll(() => page.getByTestId('mcp-registry-source').textContent())
      .toContain('Official MCP Registry')
    await page.getByTestId('mcp-registry-change').click()
    await page.getByTestId('mcp-registry-url').fill('javascript:alert(1)')
    await page.getByTestId('mcp-registry-url-save').click()
    await expect
      .poll(() => page.getByTestId('mcp-registry-settings-status').textContent())
      .toContain('must be an https address')
    await page.getByTestId('mcp-registry-url').fill(registry.url)
    await page.getByTestId('mcp-registry-url-save').click()
    await expect.poll(() => page.getByTestId('mcp-registry-source').textContent()).toContain(registry.url)

    // 30 a page; Load more brings the rest.
    const items = page.locator('[data-testid^="mcp-registry-item-"]')
    await expect.poll(() => items.count()).toBe(30)
    await page.getByTestId('mcp-registry-more').click()
    await expect.poll(() => items.count()).toBe(35)
    await expect.poll(() => page.getByTestId('mcp-registry-more').count()).toBe(0)
    await shootAndCheck(page, 'mcp-registry-list-1280')

    // Search as you type: one request for the finished word, the registry's matches only.
    const before = registry.requests.length
    await page.getByTestId('mcp-registry-search').pressSequentially('echo', { delay: 40 })
    await expect.poll(() => items.count()).toBe(1)
    const searches = registry.requests.slice(before).filter((r) => r.includes('search='))
    expect(searches).toEqual(['/v0.1/servers?limit=30&search=echo'])

    await page.getByTestId(`mcp-registry-item-${ECHO}`).click()
    await page.getByTestId('mcp-registry-detail').waitFor()
    expect(await page.getByTestId('mcp-registry-publisher').textContent()).toBe('io.github.deepchat')
    expect(await page.getByTestId('mcp-registry-repository').textContent()).toContain(
      'https://github.com/deepchat/echo'
    )
    expect(await page.getByTestId('mcp-registry-status').textContent()).toContain('Official: active')
    expect(await page.getByTestId('mcp-registry-package-0').textContent()).toContain(
      `npx -y ${ECHO_PACKAGE_NAME}@1.0.0`
    )
    // The refused package and the javascript: website are not offered; the reasons are listed.
    expect(await page.locator('[data-testid^="mcp-registry-package-"]').count()).toBe(1)
    const refused = await page.getByTestId('mcp-registry-refused').textContent()
    expect(refused).toContain('is not an npm package name')
    expect(refused).toContain('only http(s) links are shown (got javascript:)')
    await shootAndCheck(page, 'mcp-registry-detail-1280')

    await page.getByTestId('mcp-registry-install-package-0').click()
    await page.getByTestId('mcp-registry-form').waitFor()
    expect(await page.getByTestId('mcp-registry-form-what').textContent()).toContain(
      `npx -y ${ECHO_PACKAGE_NAME}@1.0.0`
    )
    const secret = page.getByTestId('mcp-registry-value-env:FIXTURE_GREETING')
    expect(await secret.getAttribute('type')).toBe('password')
    await secret.fill('hello from the e2e form')
    await shootAndCheck(page, 'mcp-registry-form-1280')
    await page.getByTestId('mcp-registry-submit').click()
    await expect
      .poll(() => page.getByTestId('mcp-registry-done').textContent(), { timeout: 15_000 })
      .toContain('Echo')
    await page.getByTestId('mcp-registry-installed').waitFor()
    await page.keyboard.press('Escape')
    await page.getByTestId('mcp-registry').waitFor({ state: 'detached' })

    // npx fetches the package from the fake npm registry and the server starts.
    const card = page.locator('[data-testid^="mcp-card-"]', {
      has: page.getByRole('heading', { name: 'Echo', exact: true })
    })
    await expect
      .poll(() => card.locator('[data-state]').getAttribute('data-state'), { timeout: 90_000 })
      .toBe('running')
    expect(npm.requests).toContain(`/${ECHO_PACKAGE_NAME}/-/${ECHO_PACKAGE_NAME}-1.0.0.tgz`)
    await card.getByRole('button', { name: 'Tools & details' }).click()
    await page.getByTestId('mcp-tool-echo').waitFor()
    await page.getByTestId('mcp-tool-greeting').waitFor()
    await page.keyboard.press('Escape')
    await page.getByTestId('mcp-panel').waitFor({ state: 'detached' })
    // The secret never comes back to the page.
    expect(await page.content()).not.toContain('hello from the e2e form')
    await shootAndCheck(page, 'mcp-registry-installed-1280')
    expect(relevantErrors(errors)).toEqual([])
    await page.context().close()
  }, 180_000)

  it('at 800×600 the list, detail and form fit; offline it shows the cached pages with their time', async () => {
    const { page, errors } = await openSettings(browser, host, 'mcp')
    await page.setViewportSize({ width: 800, height: 600 })
    await openBrowser(page)
    await page.locator('[data-testid^="mcp-registry-item-"]').first().waitFor()
    await fitsWidth(page)
    await shootAndCheck(page, 'mcp-registry-list-800')

    await page.getByTestId('mcp-registry-search').fill('echo')
    await page.getByTestId(`mcp-registry-item-${ECHO}`).waitFor()
    await page.getByTestId('mcp-registry-installed-badge').waitFor()
    await expect.poll(() => page.locator('[data-testid^="mcp-registry-item-"]').count()).toBe(1)
    await page.getByTestId(`mcp-registry-item-${ECHO}`).click()
    await page.getByTestId('mcp-registry-detail').waitFor()
    await fitsWidth(page)
    await shootAndCheck(page, 'mcp-registry-detail-800')
    await page.getByTestId('mcp-registry-install-remote-0').click()
    await page.getByTestId('mcp-registry-form').waitFor()
    await fitsWidth(page)
    await shootAndCheck(page, 'mcp-registry-form-800')
    await page.keyboard.press('Escape')
    await page.getByTestId('mcp-registry').waitFor({ state: 'detached' })

    await registry.close()
    await openBrowser(page)
    await page.getByTestId('mcp-registry-cached').waitFor()
    expect(await page.getByTestId('mcp-registry-cached').textContent()).toMatch(
      /Cached .*the registry could not be reached/
    )
    await expect.poll(() => page.locator('[data-testid^="mcp-registry-item-"]').count()).toBe(1)
    await fitsWidth(page)
    await shootAndCheck(page, 'mcp-registry-offline-800')
    expect(relevantErrors(errors)).toEqual([])
    await page.context().close()
  }, 120_000)
})
