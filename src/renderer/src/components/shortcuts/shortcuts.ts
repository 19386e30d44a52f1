/**
 * The app's keyboard shortcuts: one table, read by the key handler, the shortcuts sheet and the
 * tooltips, so what is shown is what works. Pure, so the matching is testable without a DOM.
 */
export type ShortcutId =
  | 'newChat'
  | 'search'
  | 'settings'
  | 'stop'
  | 'focusComposer'
  | 'copyLastAnswer'
  | 'editLastMessage'
  | 'findInChat'
  | 'showShortcuts'

export interface KeyCombo {
  key: string
  /** Ctrl, or Cmd on macOS. */
  mod?: boolean
  shift?: boolean
  /** The desktop app's menu accelerator for it: the page leaves this key to the menu there. */
  menu?: boolean
}

export interface Shortcut {
  id: ShortcutId
  combos: KeyCombo[]
  /** Handled by the composer itself (listed in the sheet only). */
  composerOnly?: boolean
}

export const SHORTCUTS: Shortcut[] = [
  // Browsers keep Ctrl+N for a new window; Ctrl+Shift+O is the page's own way to a new chat.
  {
    id: 'newChat',
    combos: [
      { key: 'o', mod: true, shift: true },
      { key: 'n', mod: true, menu: true }
    ]
  },
  { id: 'search', combos: [{ key: 'k', mod: true, menu: true }] },
  { id: 'settings', combos: [{ key: ',', mod: true, menu: true }] },
  { id: 'stop', combos: [{ key: 'Escape' }] },
  { id: 'focusComposer', combos: [{ key: 'Escape', shift: true }] },
  { id: 'copyLastAnswer', combos: [{ key: 'c', mod: true, shift: true }] },
  { id: 'editLastMessage', combos: [{ key: 'ArrowUp' }], composerOnly: true },
  // The find bar handles its key itself (chat/find/FindBar.vue): listed in the sheet only.
  { id: 'findInChat', combos: [{ key: 'f', mod: true }], composerOnly: true },
  { id: 'showShortcuts', combos: [{ key: '/', mod: true }, { key: '?' }] }
]

export interface KeyLike {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
  altKey: boolean
}

function matches(event: KeyLike, combo: KeyCombo, mac: boolean): boolean {
  const mod = mac ? event.metaKey : event.ctrlKey
  const other = mac ? event.ctrlKey : event.metaKey
  if (event.altKey || other || mod !== Boolean(combo.mod)) return false
  // `?` is typed with Shift on most layouts; the key itself says what it is.
  if (combo.key !== '?' && event.shiftKey !== Boolean(combo.shift)) return false
  return event.key.toLowerCase() === combo.key.toLowerCase()
}

/**
 * The shortcut a key press means. `inElectron`: the menu's accelerators own their keys there, so
 * the page does not run them a second time. `typing`: plain keys (`?`) belong to the text field.
 */
export function shortcutFor(
  event: KeyLike,
  context: { mac: boolean; inElectron: boolean; typing: boolean }
): ShortcutId | null {
  for (const shortcut of SHORTCUTS) {
    if (shortcut.composerOnly) continue
    for (const combo of shortcut.combos) {
      if (!matches(event, combo, context.mac)) continue
      if (context.inElectron && combo.menu) return null
      if (context.typing && combo.key === '?') return null
      return shortcut.id
    }
  }
  return null
}

/** How a combination is written for people: `Ctrl+Shift+O`, `⌘K` on macOS. */
export function comboLabel(combo: KeyCombo, mac: boolean): string {
  const names: Record<string, string> = { Escape: 'Esc', ArrowUp: '↑' }
  const key = names[combo.key] ?? (combo.key.length === 1 ? combo.key.toUpperCase() : combo.key)
  if (mac) return `${combo.mod ? '⌘' : ''}${combo.shift ? '⇧' : ''}${key}`
  return [combo.mod ? 'Ctrl' : '', combo.shift ? 'Shift' : '', key].filter(Boolean).join('+')
}

export function shortcutLabel(id: ShortcutId, mac: boolean): string {
  const shortcut = SHORTCUTS.find((s) => s.id === id)
  return shortcut ? comboLabel(shortcut.combos[0], mac) : ''
}

export function isMac(platform: string = globalThis.navigator?.platform ?? ''): boolean {
  return /mac/i.test(platform)
}
