import type { z } from 'zod'
import { configSettingsChanged } from '@shared/contracts/events/config.events'
import { SETTINGS_DEFAULTS, SettingsPatch, SettingsSchema, type Settings } from '@shared/types/settings'
import { AppError } from '@shared/errors'
import { isPickToken } from '@shared/types/pickedPath'
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

  getSettings(): Settings {
    const stored = this.readDocument(SETTINGS_KEY)
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
    const row = this.deps.sqlite.db.prepare('SELECT value_json FROM settings WHERE key = ?').get(key) as
      { value_json: string } | undefined
    if (!row) return undefined
    try {
      return JSON.parse(row.value_json)
    } catch {
      return undefined
    }
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
