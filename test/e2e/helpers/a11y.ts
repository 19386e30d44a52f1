import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import type { AxeResults } from 'axe-core'
import { settled } from './settled'

const AXE_SOURCE = join(import.meta.dirname, '..', '..', '..', 'node_modules', 'axe-core', 'axe.min.js')

export interface A11yViolation {
  id: string
  impact: string
  /** CSS selectors of the offending elements. */
  nodes: string[]
}

/**
 * Runs axe-core on the page once it has settled; returns the serious and critical violations.
 * The only accessibility check of the e2e tests.
 */
export async function seriousA11yViolations(page: Page): Promise<A11yViolation[]> {
  await settled(page)
  // Evaluated through the debugger protocol rather than a <script> tag: the app's CSP (no inline
  // scripts) stays on while the check runs.
  if (!(await page.evaluate(() => 'axe' in window))) {
    await page.evaluate(readFileSync(AXE_SOURCE, 'utf8'))
  }
  return page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: { run(context: Document, options: object): Promise<AxeResults> }
    }
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact ?? '', nodes: v.nodes.map((n) => n.target.join(' ')) }))
  })
}
