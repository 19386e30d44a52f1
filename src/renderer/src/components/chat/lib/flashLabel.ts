/** How long "Copied" (or "Copy failed") shows before the button reads as before. */
export const FLASH_MS = 2000

const timers = new WeakMap<HTMLElement, ReturnType<typeof setTimeout>>()

/**
 * Shows `text` on a button rendered outside Vue (markdown HTML) and puts its own label back
 * after FLASH_MS; a second click restarts the wait.
 */
export function flashLabel(button: HTMLElement, text: string, label: string): void {
  clearTimeout(timers.get(button))
  button.textContent = text
  timers.set(
    button,
    setTimeout(() => {
      timers.delete(button)
      if (button.isConnected) button.textContent = label
    }, FLASH_MS)
  )
}
