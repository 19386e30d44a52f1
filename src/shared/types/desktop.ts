import { z } from 'zod'

/** What the desktop app's menu, tray and keyboard shortcuts ask the window to do. */
export const AppCommand = z.enum(['newChat', 'search', 'settings'])
export type AppCommand = z.infer<typeof AppCommand>

/**
 * The auto-updater's state. `disabled` says why nothing is checked: a development build, the
 * headless host, the user's setting, or a platform the updater cannot install on.
 */
export const UpdateStatus = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('disabled'),
    reason: z.enum(['development', 'headless', 'setting', 'unsupported'])
  }),
  z.object({ state: z.literal('idle'), lastCheckedAt: z.number().nullable() }),
  z.object({ state: z.literal('checking') }),
  z.object({ state: z.literal('available'), version: z.string() }),
  z.object({ state: z.literal('downloading'), version: z.string(), percent: z.number().min(0).max(100) }),
  z.object({ state: z.literal('downloaded'), version: z.string() }),
  z.object({ state: z.literal('error'), message: z.string(), lastCheckedAt: z.number().nullable() })
])
export type UpdateStatus = z.infer<typeof UpdateStatus>

/** One MCP server a link wants to add, as the confirmation dialog shows it. */
export const DeepLinkServer = z.object({
  name: z.string(),
  type: z.string(),
  /** For stdio servers: exactly what will run. */
  command: z.string(),
  args: z.array(z.string()),
  env: z.record(z.string(), z.string()),
  url: z.string(),
  /** Header names only: values are usually credentials. */
  headerNames: z.array(z.string())
})
export type DeepLinkServer = z.infer<typeof DeepLinkServer>

/**
 * A `deepchat-desk://` link the app received. Nothing happens until the user confirms it in the
 * window; an unusable link is shown with the reason.
 */
export const DeepLinkRequest = z.discriminatedUnion('kind', [
  z.object({
    id: z.string(),
    kind: z.literal('mcp.add'),
    servers: z.array(DeepLinkServer).min(1),
    /** Entries of the link the app cannot use, with why. */
    skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
    /** The link asked to auto-approve tools; links never grant that, the user decides per tool. */
    droppedAutoApprove: z.boolean()
  }),
  z.object({ id: z.string(), kind: z.literal('invalid'), message: z.string() })
])
export type DeepLinkRequest = z.infer<typeof DeepLinkRequest>

/** The global shortcut as the desktop registered it (or could not). */
export const ShortcutStatus = z.object({
  accelerator: z.string(),
  registered: z.boolean(),
  /** Why it is not registered, e.g. another app holds it. */
  problem: z.string().nullable()
})
export type ShortcutStatus = z.infer<typeof ShortcutStatus>

export const DesktopStatus = z.object({
  update: UpdateStatus,
  /** Null where there is no desktop (the headless host) or no shortcut is set. */
  shortcut: ShortcutStatus.nullable(),
  /** Links received before the window could show them (e.g. the link that started the app). */
  pendingDeepLinks: z.array(DeepLinkRequest)
})
export type DesktopStatus = z.infer<typeof DesktopStatus>
