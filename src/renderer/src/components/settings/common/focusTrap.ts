import { nextTick, onBeforeUnmount, onMounted, type Ref } from 'vue'

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

const openDialogs: Array<() => void> = []

/**
 * Keeps keyboard focus inside a dialog: focus moves in on open (to the first field after the
 * close button) and back to the opener on close; Tab wraps; Escape calls `onEscape`.
 */
export function useFocusTrap(panel: Ref<HTMLElement | null>, onEscape: () => void): (event: KeyboardEvent) => void {
  let opener: Element | null = null
  const focusables = (): HTMLElement[] => Array.from(panel.value?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])
  // Escape closes the topmost dialog even when focus fell out of it (a button became disabled).
  const onDocumentKey = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape' || openDialogs[openDialogs.length - 1] !== onEscape) return
    event.preventDefault()
    onEscape()
  }

  onMounted(async () => {
    opener = document.activeElement
    openDialogs.push(onEscape)
    document.addEventListener('keydown', onDocumentKey)
    await nextTick()
    const items = focusables()
    ;(items[1] ?? items[0] ?? panel.value)?.focus()
  })
  onBeforeUnmount(() => {
    document.removeEventListener('keydown', onDocumentKey)
    openDialogs.splice(openDialogs.indexOf(onEscape), 1)
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus()
  })

  return (event: KeyboardEvent) => {
    if (event.key !== 'Tab') return
    const items = focusables()
    if (items.length === 0) return
    const first = items[0]
    const last = items[items.length - 1]
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }
}

/** Arrow keys move between tabs, as the ARIA tabs pattern expects: the index to select, or null. */
export function nextTabIndex(key: string, index: number, count: number): number | null {
  const step = key === 'ArrowRight' ? 1 : key === 'ArrowLeft' ? -1 : key === 'Home' ? -index : key === 'End' ? count - 1 - index : 0
  return step === 0 ? null : (index + step + count) % count
}
