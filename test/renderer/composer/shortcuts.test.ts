import { describe, expect, it } from 'vitest'
import { comboLabel, shortcutFor, type KeyLike } from '@renderer/components/shortcuts/shortcuts'
import { findTrigger, replaceTrigger } from '@renderer/components/chat/input/lib/triggers'

const key = (k: string, mods: Partial<Omit<KeyLike, 'key'>> = {}): KeyLike => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods
})
const browser = { mac: false, inElectron: false, typing: false }

describe('keyboard shortcuts', () => {
  it('maps the usual Ctrl combinations in a browser, and Cmd on macOS', () => {
    expect(shortcutFor(key('k', { ctrlKey: true }), browser)).toBe('search')
    expect(shortcutFor(key('O', { ctrlKey: true, shiftKey: true }), browser)).toBe('newChat')
    expect(shortcutFor(key(',', { ctrlKey: true }), browser)).toBe('settings')
    expect(shortcutFor(key('C', { ctrlKey: true, shiftKey: true }), browser)).toBe('copyLastAnswer')
    expect(shortcutFor(key('Escape'), browser)).toBe('stop')
    expect(shortcutFor(key('Escape', { shiftKey: true }), browser)).toBe('focusComposer')
    expect(shortcutFor(key('/', { ctrlKey: true }), browser)).toBe('showShortcuts')
    expect(shortcutFor(key('k', { metaKey: true }), { ...browser, mac: true })).toBe('search')
    expect(shortcutFor(key('k', { ctrlKey: true }), { ...browser, mac: true })).toBeNull()
    expect(shortcutFor(key('k', { ctrlKey: true, altKey: true }), browser)).toBeNull()
    expect(shortcutFor(key('c', { ctrlKey: true }), browser)).toBeNull() // plain copy stays the browser's
  })

  it('leaves the desktop menu its own accelerators so nothing fires twice', () => {
    const electron = { ...browser, inElectron: true }
    expect(shortcutFor(key('n', { ctrlKey: true }), electron)).toBeNull()
    expect(shortcutFor(key('k', { ctrlKey: true }), electron)).toBeNull()
    expect(shortcutFor(key(',', { ctrlKey: true }), electron)).toBeNull()
    expect(shortcutFor(key('n', { ctrlKey: true }), browser)).toBe('newChat')
    // Keys the menu does not have still work in the desktop window.
    expect(shortcutFor(key('O', { ctrlKey: true, shiftKey: true }), electron)).toBe('newChat')
    expect(shortcutFor(key('Escape'), electron)).toBe('stop')
  })

  it('leaves ? to a text field being typed in', () => {
    expect(shortcutFor(key('?', { shiftKey: true }), browser)).toBe('showShortcuts')
    expect(shortcutFor(key('?', { shiftKey: true }), { ...browser, typing: true })).toBeNull()
  })

  it('writes combinations the way each platform does', () => {
    expect(comboLabel({ key: 'o', mod: true, shift: true }, false)).toBe('Ctrl+Shift+O')
    expect(comboLabel({ key: 'k', mod: true }, true)).toBe('⌘K')
    expect(comboLabel({ key: 'Escape' }, false)).toBe('Esc')
  })
})

describe('composer menu triggers', () => {
  it('opens / only at the start of the message and @ at the start of a word', () => {
    expect(findTrigger('/sum', 4)).toEqual({ kind: 'slash', query: 'sum', start: 0, end: 4 })
    expect(findTrigger('say /sum', 8)).toBeNull()
    expect(findTrigger('look at @rea', 12)).toEqual({ kind: 'mention', query: 'rea', start: 8, end: 12 })
    expect(findTrigger('mail a@b', 8)).toBeNull()
    const at = findTrigger('see @x now', 6)!
    expect(replaceTrigger('see @x now', at, '')).toBe('see  now')
  })
})
