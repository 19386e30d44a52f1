import type { MenuItemConstructorOptions } from 'electron'
import type { AppCommand } from '@shared/types/desktop'
import type { ShellText } from './shellText'

/** The app's own keyboard shortcuts, shown in the menu and active while the window has focus. */
export const COMMAND_ACCELERATORS: Record<AppCommand, string> = {
  newChat: 'CmdOrCtrl+N',
  search: 'CmdOrCtrl+K',
  settings: 'CmdOrCtrl+,'
}

export interface MenuOptions {
  platform: NodeJS.Platform
  appName: string
  text: ShellText
  /** Development builds get reload and developer tools. */
  dev: boolean
  onCommand: (command: AppCommand) => void
}

const separator: MenuItemConstructorOptions = { type: 'separator' }

function commandItem(command: AppCommand, label: string, options: MenuOptions): MenuItemConstructorOptions {
  return {
    id: `command.${command}`,
    label,
    accelerator: COMMAND_ACCELERATORS[command],
    click: () => options.onCommand(command)
  }
}

function viewMenu(options: MenuOptions): MenuItemConstructorOptions {
  const devItems: MenuItemConstructorOptions[] = options.dev
    ? [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, separator]
    : []
  return {
    label: options.text.view,
    submenu: [
      ...devItems,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' }
    ]
  }
}

/**
 * The application menu: the platform's standard roles (edit, window, and on macOS the app menu)
 * plus New chat, Search and Settings, which send `app.command.invoked` to the window.
 */
export function buildAppMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const { text } = options
  const newChat = commandItem('newChat', text.newChat, options)
  const search = commandItem('search', text.search, options)
  const settings = commandItem('settings', text.settings, options)
  const edit: MenuItemConstructorOptions = { role: 'editMenu', label: text.edit }
  const window: MenuItemConstructorOptions = { role: 'windowMenu', label: text.window }
  if (options.platform === 'darwin') {
    return [
      {
        label: options.appName,
        submenu: [
          { role: 'about' },
          separator,
          settings,
          separator,
          { role: 'services' },
          separator,
          { role: 'hide' },
          { role: 'hideOthers' },
          { role: 'unhide' },
          separator,
          { role: 'quit' }
        ]
      },
      { label: text.file, submenu: [newChat, search, separator, { role: 'close' }] },
      edit,
      viewMenu(options),
      window
    ]
  }
  return [
    {
      label: text.file,
      submenu: [newChat, search, separator, settings, separator, { role: 'quit', label: text.quit }]
    },
    edit,
    viewMenu(options),
    window
  ]
}

export interface TrayMenuOptions {
  text: ShellText
  windowVisible: boolean
  onToggleWindow: () => void
  onCommand: (command: AppCommand) => void
  onQuit: () => void
}

/** The tray's menu: show or hide the window, start a chat, quit. */
export function buildTrayMenuTemplate(options: TrayMenuOptions): MenuItemConstructorOptions[] {
  return [
    {
      id: 'tray.toggle',
      label: options.windowVisible ? options.text.hide : options.text.show,
      click: options.onToggleWindow
    },
    { id: 'tray.newChat', label: options.text.newChat, click: () => options.onCommand('newChat') },
    separator,
    { id: 'tray.quit', label: options.text.quit, click: options.onQuit }
  ]
}
