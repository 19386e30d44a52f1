import { nextTick, onBeforeUnmount, onMounted, type Ref } from 'vue'
import { isComposingKey } from '@renderer/lib/imeKeys'

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** Open modals, innermost last: only the topmost one answers Escape and Tab. */
const openModals: symbol[] = []

export interface ModalFocusOptions {
  /** Escape on the topmost modal (a modal that cannot be dismissed ignores it). */
  onEscape: () => void
}

/**
 * Keeps keyboard focus inside a modal: on open focus moves in (to `[data-autofocus]`, else the
 * first control that is not the close button); Tab and Shift+Tab wrap, also when focus fell
 * out (a button it was on became disabled); on close focus returns to the opener.
 */
export function useModalFocus(panel: Ref<HTMLElement | null>, options: ModalFocusOptions): void {
  const id = Symbol('modal')
  let opener: Element | null = null
  const focusables = (): HTMLElement[] =>
    Array.from(panel.value?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])

  /** The browser moves focus between controls; only the ends (and focus outside) wrap. */
  function wrapTab(event: KeyboardEvent): void {
    const items = focusables()
    if (items.length === 0) {
      event.preventDefault()
      return panel.value?.focus()
    }
    const first = items[0]
    const last = items[items.length - 1]
    const inside = panel.value?.contains(document.activeElement) ?? false
    if (
      event.shiftKey &&
      (!inside || document.activeElement === first || document.activeElement === panel.value)
    ) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && (!inside || document.activeElement === last)) {
      event.preventDefault()
      first.focus()
    }
  }

  // On the document (not the panel) so keys count even when focus fell outside the panel.
  function onKeydown(event: KeyboardEvent): void {
    if (openModals[openModals.length - 1] !== id) return
    // Esc ending an input method's composition in a field is not the user closing the dialog.
    if (event.key === 'Escape' && !isComposingKey(event)) {
      // Handled here whether or not the modal may close: nothing underneath reacts to it.
      event.preventDefault()
      options.onEscape()
    } else if (event.key === 'Tab') {
      wrapTab(event)
    }
  }

  onMounted(async () => {
    opener = document.activeElement
    openModals.push(id)
    document.addEventListener('keydown', onKeydown)
    await nextTick()
    const root = panel.value
    const preferred =
      root?.querySelector<HTMLElement>('[data-autofocus]') ??
      focusables().find((el) => !el.hasAttribute('data-dialog-close'))
    ;(preferred ?? focusables()[0] ?? root)?.focus()
  })
  onBeforeUnmount(() => {
    document.removeEventListener('keydown', onKeydown)
    openModals.splice(openModals.indexOf(id), 1)
    if (opener instanceof HTMLElement && opener.isConnected) opener.focus()
  })
}
