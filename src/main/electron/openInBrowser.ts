import { shell } from 'electron'
import { httpOnlyOpener } from '../platform/externalUrl'

/** The desktop app's one call of the OS opener: http(s) only (see platform/externalUrl.ts). */
export const openInBrowser = httpOnlyOpener((href) => shell.openExternal(href))
