import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser } from 'playwright-core'

/** Debian's chromium (never a downloaded browser); CHROMIUM_PATH overrides. */
export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/lib/chromium/chromium', '/usr/bin/chromium'].filter(
    (p): p is string => Boolean(p)
  )
  const found = candidates.find((p) => existsSync(p))
  if (!found) throw new Error('Chromium not found: apt-get install -y chromium (or set CHROMIUM_PATH)')
  return found
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run'
    ]
  })
}

export const ARTIFACTS_DIR = join(import.meta.dirname, '..', 'artifacts')

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS_DIR, { recursive: true })
  return join(ARTIFACTS_DIR, name)
}
