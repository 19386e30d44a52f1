import { describe, expect, it } from 'vitest'
import type { MenuItemConstructorOptions } from 'electron'
import type { AppCommand } from '@shared/types/desktop'
import { buildAppMenuTemplate, buildTrayMenuTemplate } from '../../../src/main/electron/menus'
import { shellText } from '../../../src/main/electron/shellText'

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? flatten(item.submenu) : [])])
}

function menu(platform: NodeJS.Platform, dev = false) {
  const commands: AppCommand[] = []
  const template = buildAppMenuTemplate({
    platform,
    appName: 'DeepChat Desk',
    text: shellText('en-US'),
    dev,
    onCommand: (command) => commands.push(command)
  })
  const byId = (id: string) => flatten(template).find((item) => item.id === id)!
  const roles = flatten(template)
    .map((item) => item.role)
    .filter(Boolean)
  return { template, commands, byId, roles }
}

const click = (item: MenuItemConstructorOptions) => (item.click as () => void)()

describe('application menu', () => {
  it('has New chat, Search and Settings with their shortcuts, each sending its command', () => {
    for (const platform of ['darwin', 'win32', 'linux'] as const) {
      const { byId, commands } = menu(platform)
      expect(byId('command.newChat')).toMatchObject({ label: 'New Chat', accelerator: 'CmdOrCtrl+N' })
      expect(byId('command.search')).toMatchObject({ label: 'Search Chats', accelerator: 'CmdOrCtrl+K' })
      expect(byId('command.settings')).toMatchObject({ label: 'Settings…', accelerator: 'CmdOrCtrl+,' })
      for (const id of ['command.newChat', 'command.search', 'command.settings']) click(byId(id))
      expect(commands).toEqual(['newChat', 'search', 'settings'])
    }
  })

  it('uses the standard roles: the macOS app menu there, Quit in File elsewhere', () => {
    const mac = menu('darwin')
    expect(mac.template[0].label).toBe('DeepChat Desk')
    expect(mac.roles).toEqual(
      expect.arrayContaining([
        'about',
        'services',
        'hide',
        'hideOthers',
        'unhide',
        'quit',
        'close',
        'editMenu',
        'windowMenu',
        'togglefullscreen'
      ])
    )
    // Settings sits in the app menu on macOS, in File elsewhere.
    expect(
      (mac.template[0].submenu as MenuItemConstructorOptions[]).some((i) => i.id === 'command.settings')
    ).toBe(true)
    const linux = menu('linux')
    expect(linux.template.map((m) => m.label)).toEqual(['File', 'Edit', 'View', 'Window'])
    expect(linux.roles).toEqual(expect.arrayContaining(['quit', 'editMenu', 'windowMenu']))
    expect(linux.roles).not.toContain('services')
  })

  it('offers reload and developer tools only in development builds', () => {
    expect(menu('linux').roles).not.toContain('toggleDevTools')
    expect(menu('linux').roles).not.toContain('reload')
    expect(menu('linux', true).roles).toEqual(
      expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools'])
    )
  })

  it('speaks the user’s language', () => {
    const template = buildAppMenuTemplate({
      platform: 'win32',
      appName: 'DeepChat Desk',
      text: shellText('zh-CN'),
      dev: false,
      onCommand: () => {}
    })
    expect(template.map((m) => m.label)).toEqual(['文件', '编辑', '视图', '窗口'])
  })
})

describe('tray menu', () => {
  it('shows or hides the window, starts a chat and quits', () => {
    const calls: string[] = []
    const template = (windowVisible: boolean) =>
      buildTrayMenuTemplate({
        text: shellText('en-US'),
        windowVisible,
        onToggleWindow: () => calls.push('toggle'),
        onCommand: (command) => calls.push(command),
        onQuit: () => calls.push('quit')
      })
    expect(template(true).map((i) => i.label ?? i.type)).toEqual([
      'Hide DeepChat Desk',
      'New Chat',
      'separator',
      'Quit DeepChat Desk'
    ])
    expect(template(false)[0].label).toBe('Show DeepChat Desk')
    for (const item of template(false)) if (item.click) click(item)
    expect(calls).toEqual(['toggle', 'newChat', 'quit'])
  })
})
