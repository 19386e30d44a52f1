import type { DeepLinkRequest, DesktopStatus } from '@shared/types/desktop'

/** Secrets (API keys, MCP tokens) live here, never in the settings store or the renderer. */
export interface SecretStore {
  get(key: string): Promise<string | undefined>
  set(key: string, value: string): Promise<void>
  delete(key: string): Promise<void>
  has(key: string): Promise<boolean>
}

/** The few services that differ between the Electron app and the headless host. */
export interface Platform {
  readonly kind: 'electron' | 'node'
  readonly appName: string
  readonly appVersion: string
  readonly userDataDir: string
  readonly versions: { node: string; electron: string | null; chrome: string | null }
  readonly secrets: SecretStore
  /** The file `secrets` keeps its values in: no tool may read or write it. */
  readonly secretsFile: string
  openExternal(url: string): Promise<void>
  notify(title: string, body: string): void
  /**
   * A native "choose folder" dialog: the chosen absolute path, or null when cancelled. Absent
   * where there is no desktop to show it on (the headless host): the UI then asks for a path.
   */
  pickFolder?(options: PickFolderOptions): Promise<string | null>
  /**
   * A native "open files" dialog for attachments: the chosen absolute paths ([] when cancelled).
   * Absent in the headless host: the page uploads the files instead.
   */
  pickFiles?(options: { title?: string }): Promise<string[]>
  /** Where better-sqlite3's native binding lives when it differs from the Node build. */
  readonly sqliteNativeBinding?: string
  /** The desktop shell (updates, global shortcut, deep links); absent in the headless host. */
  readonly desktop?: DesktopPort
  /**
   * The headless host's way to apply a staged restore: the back end is disposed and built again
   * in the same process (the page reconnects and reloads); false when it cannot.
   */
  restartBackEnd?(): boolean
}

/** What routes may ask of the desktop shell (src/main/electron/desktopShell.ts). */
export interface DesktopPort {
  status(): DesktopStatus
  /** Quits and installs a downloaded update; false when none is ready. */
  installUpdate(): boolean
  /** Restarts the app (a staged backup restore is applied as it starts); false when it cannot. */
  relaunch(): boolean
  /** Removes a link request the user answered; undefined when it is not pending. */
  takeDeepLink(id: string): PendingDeepLink | undefined
}

export interface PendingDeepLink {
  request: DeepLinkRequest
  /** For `mcp.add`: the servers in the common `{"mcpServers": …}` form, without auto-approvals. */
  mcpServersJson?: string
}

export interface PickFolderOptions {
  title?: string
  /** Where the dialog opens (for example the current workspace). */
  defaultPath?: string
}
