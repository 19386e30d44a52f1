import { join } from 'node:path'
import type { Platform } from '../platform/types'
import { EventHub } from '../bridge/events'
import { SqlitePresenter } from './sqlitePresenter'
import { ConfigPresenter } from './configPresenter'
import { LlmProviderPresenter } from './llmProviderPresenter'
import { TapePresenter } from './tapePresenter'
import { SessionPresenter } from './sessionPresenter'

export interface Presenters {
  platform: Platform
  events: EventHub
  sqlite: SqlitePresenter
  config: ConfigPresenter
  llmProviders: LlmProviderPresenter
  tape: TapePresenter
  sessions: SessionPresenter
  /** Stops background work and closes the database. Safe to call twice. */
  dispose(): Promise<void>
}

export const DATABASE_FILE = 'deepchat.db'

/**
 * The composition root: the only place that calls `new` on presenters and hands each one the
 * narrow interfaces it needs.
 */
export function createPresenters(platform: Platform, options: { log?: (message: string) => void } = {}): Presenters {
  const log = options.log ?? ((message: string) => console.error(message))
  const events = new EventHub(log)
  const sqlite = new SqlitePresenter({
    file: join(platform.userDataDir, DATABASE_FILE),
    nativeBinding: platform.sqliteNativeBinding
  })
  const config = new ConfigPresenter({ sqlite, secrets: platform.secrets, events })
  const llmProviders = new LlmProviderPresenter({ config, events })
  const tape = new TapePresenter({ sqlite })
  const sessions = new SessionPresenter({ sqlite, tape, events })

  let disposed = false
  return {
    platform,
    events,
    sqlite,
    config,
    llmProviders,
    tape,
    sessions,
    async dispose() {
      if (disposed) return
      disposed = true
      sqlite.close()
    }
  }
}
