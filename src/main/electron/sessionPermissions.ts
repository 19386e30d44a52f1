import type { Session } from 'electron'

/**
 * The only web permissions the app's own page may use: showing notifications and writing to the
 * clipboard (the copy buttons). Camera, microphone, geolocation, HID, USB, serial, MIDI,
 * fullscreen requests from content and the rest are refused, and nothing is ever allowed to a
 * page that is not the app's.
 */
export const ALLOWED_WEB_PERMISSIONS: ReadonlySet<string> = new Set([
  'notifications',
  'clipboard-sanitized-write'
])

export function isWebPermissionAllowed(
  permission: string,
  requestingUrl: string | undefined,
  isTrustedUrl: (url: string) => boolean
): boolean {
  return ALLOWED_WEB_PERMISSIONS.has(permission) && Boolean(requestingUrl) && isTrustedUrl(requestingUrl!)
}

/** Deny by default, for requests and for the synchronous checks pages make before asking. */
export function installPermissionHandlers(session: Session, isTrustedUrl: (url: string) => boolean): void {
  session.setPermissionRequestHandler((webContents, permission, callback, details) => {
    callback(isWebPermissionAllowed(permission, details.requestingUrl ?? webContents.getURL(), isTrustedUrl))
  })
  session.setPermissionCheckHandler((webContents, permission, _origin, details) => {
    return isWebPermissionAllowed(permission, details.requestingUrl ?? webContents?.getURL(), isTrustedUrl)
  })
  // No device pickers at all (USB, HID, serial, Bluetooth).
  session.setDevicePermissionHandler(() => false)
}
