// One Chromium per vitest worker for the whole e2e run, instead of one per test file: each file
// connects to its worker's browser and works in contexts of its own (see launchBrowser).
import { chromium, type BrowserServer } from 'playwright-core'
import type { TestProject } from 'vitest/node'
import { browserLaunchOptions, findBrowser } from './browser'

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const found = findBrowser()
  console.log(`e2e: ${found.source} Chromium ${found.executablePath}`)
  const count = Math.max(1, Number(project.config.maxWorkers) || 1)
  const options = browserLaunchOptions()
  const servers: BrowserServer[] = await Promise.all(
    Array.from({ length: count }, () => chromium.launchServer(options))
  )
  project.provide(
    'browserEndpoints',
    servers.map((s) => s.wsEndpoint())
  )
  return async () => {
    await Promise.all(servers.map((s) => s.close()))
  }
}
