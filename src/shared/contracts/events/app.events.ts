import { z } from 'zod'
import { defineEvent } from '../define'
import { AppCommand, DeepLinkRequest, UpdateStatus } from '../../types/desktop'
import { StorageStatus } from '../../types/storage'

/** A menu item, the tray or a keyboard shortcut of the desktop app asked the window to do something. */
export const appCommandInvoked = defineEvent({
  name: 'app.command.invoked',
  payload: z.object({ command: AppCommand })
})

/** The auto-updater moved on (checking, downloading, ready to restart, failed). */
export const appUpdateChanged = defineEvent({
  name: 'app.update.changed',
  payload: z.object({ status: UpdateStatus })
})

/** A `deepchat-desk://` link arrived; the window asks the user before anything happens. */
export const appDeepLinkReceived = defineEvent({
  name: 'app.deepLink.received',
  payload: z.object({ request: DeepLinkRequest })
})

/** The data folder cannot be written (or can again: `fault` null); also a damaged database found at start. */
export const appStorageChanged = defineEvent({
  name: 'app.storage.changed',
  payload: StorageStatus
})
