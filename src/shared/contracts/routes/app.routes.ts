import { z } from 'zod'
import { defineRoute } from '../define'
import { AppInfo } from '../../types/app'
import { DesktopStatus } from '../../types/desktop'
import { StorageStatus } from '../../types/storage'

export const appGetInfo = defineRoute({
  name: 'app.getInfo',
  input: z.object({}).strict(),
  output: AppInfo
})

/**
 * Opens an address in the user's browser. Main's one opener decides (http and https only, see
 * main/platform/externalUrl.ts) and refuses anything else with `external_url_refused` and the
 * reason, which the page shows; so the input is any bounded string.
 */
export const appOpenExternal = defineRoute({
  name: 'app.openExternal',
  input: z.object({ url: z.string().max(20_000) }).strict(),
  output: z.object({ opened: z.boolean() })
})

/** What a folder picker answers: the folder's real path and a pick token for it (null: cancelled). */
const PickedFolder = z.object({ path: z.string().nullable(), token: z.string().nullable() })

/**
 * A native folder dialog (Electron only). The headless host answers `{supported: false}` and the
 * UI asks for a path instead (`app.chooseFolder`); `path` is null when the user cancelled. The
 * token is what routes taking a folder accept (see `shared/types/pickedPath.ts`).
 */
export const appPickFolder = defineRoute({
  name: 'app.pickFolder',
  input: z
    .object({ title: z.string().max(200).optional(), defaultPath: z.string().max(4096).optional() })
    .strict(),
  output: z.discriminatedUnion('supported', [
    z.object({ supported: z.literal(false) }),
    PickedFolder.extend({ supported: z.literal(true) })
  ])
})

/**
 * A folder the user typed, as a pick: the desktop app confirms it in its folder dialog (opened
 * there); the headless host, which has only the page, checks that it is an existing folder.
 * Either way main issues the token, bound to the folder's real path, for this connection only.
 */
export const appChooseFolder = defineRoute({
  name: 'app.chooseFolder',
  input: z.object({ path: z.string().min(1).max(4096), title: z.string().max(200).optional() }).strict(),
  output: PickedFolder
})

/** The desktop shell's state: updates, the global shortcut, links waiting for the user. */
export const appGetDesktopStatus = defineRoute({
  name: 'app.getDesktopStatus',
  input: z.object({}).strict(),
  output: DesktopStatus
})

/** Quits and installs a downloaded update; `restarting` is false when none is ready. */
export const appInstallUpdate = defineRoute({
  name: 'app.installUpdate',
  input: z.object({}).strict(),
  output: z.object({ restarting: z.boolean() })
})

/**
 * The user's answer to a `deepchat-desk://` link. Only an accepted, still pending link changes
 * anything; the id comes from `app.deepLink.received`.
 */
export const appResolveDeepLink = defineRoute({
  name: 'app.resolveDeepLink',
  input: z.object({ id: z.string().min(1).max(100), accept: z.boolean() }).strict(),
  output: z.object({
    added: z.array(z.string()),
    skipped: z.array(z.object({ name: z.string(), reason: z.string() }))
  })
})

/** Whether the data folder can be written now, and a damaged database this start moved aside. */
export const appGetStorageStatus = defineRoute({
  name: 'app.getStorageStatus',
  input: z.object({}).strict(),
  output: StorageStatus
})
