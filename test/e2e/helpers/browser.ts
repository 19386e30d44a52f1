import { accessSync, constants, existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type LaunchOptions } from 'playwright-core'
import { npmChromium } from './npmChromium'

const SYSTEM_CHROMIUMS = ['/usr/lib/chromium/chromium', '/usr/bin/chromium']

export const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run'
]

export interface FoundBrowser {
  executablePath: string
  env: Record<string, string>
  /** Which one it is, for the run's log. */
  source: 'CHROMIUM_PATH' | 'system' | 'npm'
}

/**
 * The browser for e2e tests: CHROMIUM_PATH, else Debian's chromium, else the one npm installed
 * (@sparticuz/chromium). DEEPCHAT_E2E_NPM_CHROMIUM=1 skips the system one (the fresh-machine check).
 */
export function findBrowser(): FoundBrowser {
  const explicit = process.env.CHROMIUM_PATH
  if (explicit) {
    if (!existsSync(explicit)) throw new Error(`CHROMIUM_PATH=${explicit} does not exist`)
    return { executablePath: explicit, env: {}, source: 'CHROMIUM_PATH' }
  }
  if (process.env.DEEPCHAT_E2E_NPM_CHROMIUM !== '1') {
    const system = SYSTEM_CHROMIUMS.find(isExecutable)
    if (system) return { executablePath: system, env: {}, source: 'system' }
  }
  return { ...npmChromium(), source: 'npm' }
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** The browser's path alone (the render bench launches its own). */
export function chromiumPath(): string {
  return findBrowser().executablePath
}

export function browserLaunchOptions(): LaunchOptions {
  const found = findBrowser()
  return {
    executablePath: found.executablePath,
    args: BROWSER_ARGS,
    env: { ...process.env, ...found.env } as Record<string, string>
  }
}

/**
 * A browser for one test file. Under vitest's e2e project this connects to the worker's shared
 * Chromium (started once by the global setup), so `close()` ends only this file's contexts;
 * elsewhere it launches one of its own.
 */
export async function launchBrowser(): Promise<Browser> {
  const endpoints = await providedEndpoints()
  if (endpoints.length > 0) {
    // VITEST_POOL_ID numbers the workers from 1: each worker keeps to its own browser.
    const pool = Number(process.env.VITEST_POOL_ID ?? 1)
    return chromium.connect(endpoints[(pool - 1) % endpoints.length])
  }
  return chromium.launch(browserLaunchOptions())
}

async function providedEndpoints(): Promise<string[]> {
  // Imported only inside vitest: outside it (the render bench) 'vitest' cannot be loaded.
  if (!process.env.VITEST) return []
  const { inject } = await import('vitest')
  return inject('browserEndpoints') ?? []
}

declare module 'vitest' {
  export interface ProvidedContext {
    browserEndpoints: string[]
  }
}

export const ARTIFACTS_DIR = join(import.meta.dirname, '..', 'artifacts')

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true })
  return join(ARTIFACTS_DIR, name)
}
