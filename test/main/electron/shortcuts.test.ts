import { describe, expect, it } from 'vitest'
import { globalShortcutProblem } from '@shared/accelerator'
import { SettingsPatch } from '@shared/types/settings'
import { ShortcutBinding, type ShortcutRegistry } from '../../../src/main/electron/shortcutBinding'

describe('global shortcut accelerators', () => {
  it('accepts modifier combinations Electron understands', () => {
    for (const ok of [
      'CommandOrControl+Shift+D',
      'Alt+Space',
      'CmdOrCtrl+F12',
      'Super+Plus',
      'Control+Alt+num5',
      'shift+alt+/',
      'Ctrl+MediaPlayPause'
    ]) {
      expect(globalShortcutProblem(ok), ok).toBeNull()
    }
  })

  it('refuses the rest with a reason a person can act on', () => {
    const cases: Array<[string, RegExp]> = [
      ['D', /at least one modifier/],
      ['Ctrl+Shift', /needs a key after the modifiers/],
      ['Ctrl+Hyper+D', /Unknown modifier "Hyper"/],
      ['Ctrl+A+B', /Only one key may follow the modifiers/],
      ['Ctrl+Shift+Shift+D', /appears twice/],
      ['Ctrl+Foo', /Unknown key "Foo"/],
      ['Ctrl++', /empty part; write the plus key as Plus/],
      [' Ctrl+D', /without spaces/],
      ['Ctrl+F25', /Unknown key "F25"/]
    ]
    for (const [accelerator, reason] of cases)
      expect(globalShortcutProblem(accelerator), accelerator).toMatch(reason)
  })

  it('is checked when the setting is written; empty turns the shortcut off', () => {
    const bad = SettingsPatch.safeParse({ globalShortcut: 'Ctrl+Nope' })
    expect(bad.success).toBe(false)
    expect(bad.error?.issues[0].message).toBe('Unknown key "Nope"')
    expect(SettingsPatch.safeParse({ globalShortcut: '' }).success).toBe(true)
  })
})

describe('shortcut binding', () => {
  function registry(taken: string[] = []) {
    const registered = new Map<string, () => void>()
    const fake: ShortcutRegistry = {
      register: (accelerator, callback) => {
        if (taken.includes(accelerator)) return false
        if (accelerator === 'Ctrl+F13') throw new Error('conversion failure')
        registered.set(accelerator, callback)
        return true
      },
      unregister: (accelerator) => void registered.delete(accelerator)
    }
    return { fake, registered }
  }

  it('registers the shortcut, moves it when the setting changes and releases it', () => {
    const { fake, registered } = registry()
    let shown = 0
    const binding = new ShortcutBinding(fake, () => shown++)
    expect(binding.apply('CommandOrControl+Shift+D')).toEqual({
      accelerator: 'CommandOrControl+Shift+D',
      registered: true,
      problem: null
    })
    registered.get('CommandOrControl+Shift+D')!()
    expect(shown).toBe(1)
    binding.apply('Alt+Shift+K')
    expect([...registered.keys()]).toEqual(['Alt+Shift+K'])
    expect(binding.apply('')).toBeNull()
    expect(registered.size).toBe(0)
  })

  it('reports a shortcut another app holds, or one the platform rejects, without throwing', () => {
    const { fake, registered } = registry(['Alt+Space'])
    const binding = new ShortcutBinding(fake, () => {})
    expect(binding.apply('Alt+Space')).toMatchObject({
      registered: false,
      problem: expect.stringContaining('Another application')
    })
    expect(binding.apply('Ctrl+F13')).toMatchObject({ registered: false, problem: 'conversion failure' })
    expect(binding.apply('Q')).toMatchObject({
      registered: false,
      problem: expect.stringContaining('modifier')
    })
    expect(registered.size).toBe(0)
  })
})
