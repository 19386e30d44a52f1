import type { z } from 'zod'
import { configSettingsChanged } from '@shared/contracts/events/config.events'
import { SETTINGS_DEFAULTS, SettingsPatch, SettingsSchema, type Settings } from '@shared/types/settings'
import { AppError } from '@shared/errors'
import { isPickToken } from '@shared/types/pickedPath'
import type { Statement } from 'better-sqlite3'
import type { SqlitePresenter } from '../sqlitePresenter'
import type { SecretStore } from '../../platform/types'
import type { EventSink } from '../../bridge/events'

const SETTINGS_KEY = 'settings'

/**
 * Typed settings in SQLite, validated with zod on every read and write, plus named config
 * documents for other domains (provider list, MCP servers) and a door to the secret store.
 * Secrets never touch the `settings` table.
 */
export class ConfigPresenter {
  private parsedSettings: { raw: string | undefined; settings: Settings } | null = null
  private readStatement: Statement<[string], { value_json: string }> | null = null

  constructor(
    private readonly deps: {
      sqlite: Pick<SqlitePresenter, 'db' | 'transaction'>
      secrets: SecretStore
      events: EventSink
      /**
       * A folder chosen as the default workspace, normalised; throws `invalid_workspace` for one
       * that is missing, not a folder, or the app's own data folder.
       */
      validateWorkspace: (path: string) => string
    }
  ) {}

  /**
   * Read many times a turn (tool lists, the sandbox's variables, titles): the stored row is read
   * each time, but parsed only when its text differs from the last one parsed. Keyed by the
   * stored text, not cleared on write, so a change by any writer (a restore, another code path)
   * is seen at the next read. Frozen: every caller shares the one object.
   */
  getSettings(): Settings {
    const raw = this.readRaw(SETTINGS_KEY)
    if (this.parsedSettings && this.parsedSettings.raw === raw) return this.parsedSettings.settings
    const settings = deepFreeze(
      structuredClone(parseSettings(raw === undefined ? undefined : parseJson(raw)))
    )
    this.parsedSettings = { raw, settings }
    return settings
  }

  updateSettings(patch: SettingsPatch): Settings {
    const validPatch = SettingsPatch.safeParse(patch)
    if (!validPatch.success) {
      throw new AppError(
        'invalid_setting',
        validPatch.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
      )
    }
    const next = SettingsSchema.parse({ ...this.getSettings(), ...this.withCheckedFolders(validPatch.data) })
    this.writeDocument(SETTINGS_KEY, next)
    this.deps.events.emit(configSettingsChanged, {
      settings: next,
      changedKeys: Object.keys(validPatch.data)
    })
    return next
  }

  /** A named config document owned by another domain, validated with that domain's schema. */
  getDocument<S extends z.ZodType>(key: string, schema: S, fallback: z.output<S>): z.output<S> {
    const stored = this.readDocument(key)
    if (stored === undefined) return fallback
    const parsed = schema.safeParse(stored)
    return parsed.success ? parsed.data : fallback
  }

  setDocument<S extends z.ZodType>(key: string, schema: S, value: z.input<S>): z.output<S> {
    if (key === SETTINGS_KEY) throw new AppError('invalid_setting', 'use updateSettings for settings')
    const parsed = schema.safeParse(value)
    if (!parsed.success) {
      throw new AppError(
        'invalid_setting',
        `${key}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
      )
    }
    this.writeDocument(key, parsed.data)
    return parsed.data
  }

  getSecret(key: string): Promise<string | undefined> {
    return this.deps.secrets.get(key)
  }

  setSecret(key: string, value: string): Promise<void> {
    return this.deps.secrets.set(key, value)
  }

  deleteSecret(key: string): Promise<void> {
    return this.deps.secrets.delete(key)
  }

  /** The default workspace must be a folder the app may work in; blank clears it. */
  private withCheckedFolders(patch: SettingsPatch): SettingsPatch {
    // A pick token is the route's to redeem (routes/config.ts); one that got here is never stored.
    if (patch.backupFolder && isPickToken(patch.backupFolder))
      throw new AppError('invalid_input', 'backupFolder: choose the folder in the folder picker')
    const dir = patch.defaultWorkspaceDir
    if (dir === undefined) return patch
    return { ...patch, defaultWorkspaceDir: dir.trim() ? this.deps.validateWorkspace(dir) : '' }
  }

  private readDocument(key: string): unknown {
    const raw = this.readRaw(key)
    return raw === undefined ? undefined : parseJson(raw)
  }

  private readRaw(key: string): string | undefined {
    this.readStatement ??= this.deps.sqlite.db.prepare<[string], { value_json: string }>(
      'SELECT value_json FROM settings WHERE key = ?'
    )
    return this.readStatement.get(key)?.value_json
  }

  private writeDocument(key: string, value: unknown): void {
    this.deps.sqlite.db
      .prepare(
        `INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)
         ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`
      )
      .run(key, JSON.stringify(value), Date.now())
  }
}

/** Stored settings over the defaults; an invalid value falls back to its default alone. */
function parseSettings(stored: unknown): Settings {
  const merged = { ...SETTINGS_DEFAULTS, ...(isRecord(stored) ? stored : {}) }
  const parsed = SettingsSchema.safeParse(merged)
  if (parsed.success) return parsed.data
  // A value written by a newer or broken build must not brick the app: keep each valid
  // setting, fall back to the default for the others.
  const settings: Record<string, unknown> = { ...SETTINGS_DEFAULTS }
  for (const [key, field] of Object.entries(SettingsSchema.shape)) {
    const value = field.safeParse(merged[key as keyof typeof merged])
    if (value.success) settings[key] = value.data
  }
  return settings as Settings
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
