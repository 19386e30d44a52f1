import type { Page } from 'playwright-core'

/**
 * Resolves once the page looks final: web fonts loaded, every finite animation and transition
 * (a theme switch, a dialog fading in) finished, and a frame painted after them. Endless ones
 * (a pulsing "starting" dot) are left running. Checks of what the page shows (axe's color
 * contrast) wait for this: taken mid-transition they read colors halfway between two themes.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.ready
    // getAnimations() flushes styles first, so a transition a class change just started is in it.
    const finite = document
      .getAnimations()
      .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
    await Promise.all(finite.map((animation) => animation.finished.catch(() => undefined)))
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))
  })
}
