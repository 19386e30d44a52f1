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
  openExternal(url: string): Promise<void>
  notify(title: string, body: string): void
  /** Where better-sqlite3's native binding lives when it differs from the Node build. */
  readonly sqliteNativeBinding?: string
}
