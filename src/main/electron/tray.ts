import { Menu, nativeImage, Tray } from 'electron'
import type { MenuItemConstructorOptions } from 'electron'

export interface AppTray {
  /** Rebuilds the menu (the Show/Hide label follows the window, texts follow the language). */
  refresh(): void
  readonly tray: Tray
  destroy(): void
}

/** The tray icon; its menu comes from menus.ts buildTrayMenuTemplate. */
export function createAppTray(options: {
  icon: string
  tooltip: string
  menu: () => MenuItemConstructorOptions[]
}): AppTray {
  const image = nativeImage.createFromPath(options.icon)
  // `…Template.png` is a template image already; said again so a renamed file keeps working.
  if (process.platform === 'darwin') image.setTemplateImage(true)
  const tray = new Tray(image)
  tray.setToolTip(options.tooltip)
  const refresh = () => tray.setContextMenu(Menu.buildFromTemplate(options.menu()))
  refresh()
  return { tray, refresh, destroy: () => tray.destroy() }
}
