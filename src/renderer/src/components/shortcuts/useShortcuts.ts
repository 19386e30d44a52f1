import { onBeforeUnmount, onMounted, ref } from 'vue'
import type { Router } from 'vue-router'
import { useAppStore } from '@renderer/stores/app'
import { isComposingKey } from '@renderer/lib/imeKeys'
import { runAppCommand } from '../desktop/appCommands'
import { isMac, shortcutFor, type ShortcutId } from './shortcuts'

const COMPOSER = '[data-testid="chat-input-text"]'

function click(selector: string, last = false): boolean {
  const all = document.querySelectorAll<HTMLButtonElement>(selector)
  const button = last ? all[all.length - 1] : all[0]
  if (!button || button.disabled) return false
  button.click()
  return true
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null
  return Boolean(el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName)))
}

/**
 * The app-wide keys, on the page itself so they work in a browser as in the desktop window. The
 * actions press the same buttons a mouse would (stop, copy), so a shortcut does what its button
 * does. A key an open dialog or the composer's menus handled (default prevented) is left alone.
 */
export function useShortcuts(router: Router) {
  const app = useAppStore()
  const sheetOpen = ref(false)

  function run(id: ShortcutId): boolean {
    switch (id) {
      case 'newChat':
      case 'search':
      case 'settings':
        void runAppCommand(id, router)
        return true
      case 'stop':
        return click('[data-testid="stop-button"]')
      case 'focusComposer':
        document.querySelector<HTMLElement>(COMPOSER)?.focus()
        return true
      case 'copyLastAnswer':
        return click('[data-testid="assistant-message"] [data-testid="message-copy"]', true)
      case 'showShortcuts':
        sheetOpen.value = !sheetOpen.value
        return true
      default:
        return false
    }
  }

  function onKeydown(event: KeyboardEvent): void {
    if (event.defaultPrevented || isComposingKey(event)) return
    const id = shortcutFor(event, {
      mac: isMac(),
      // The preload's bridge is there from the first key press; app info may still be loading.
      inElectron: Boolean(window.deepchat) || app.info?.platform === 'electron',
      typing: isTyping(event.target)
    })
    if (!id) return
    // Inside a dialog only its own keys count (Escape closes it rather than stopping a run).
    if (id !== 'showShortcuts' && document.querySelector('[role="dialog"][aria-modal="true"]')) return
    if (run(id)) event.preventDefault()
  }

  onMounted(() => {
    window.addEventListener('keydown', onKeydown)
    if (!app.info) void app.loadInfo().catch(() => undefined)
  })
  onBeforeUnmount(() => window.removeEventListener('keydown', onKeydown))
  return { sheetOpen }
}
