import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { EventDef, EventPayload } from '@shared/contracts/define'
import type { EventSink } from '../../../src/main/bridge/events'
import { SqlitePresenter } from '../../../src/main/presenter/sqlitePresenter'
import { TapePresenter } from '../../../src/main/presenter/tapePresenter'
import { SessionPresenter } from '../../../src/main/presenter/sessionPresenter'
import { Workspaces } from '../../../src/main/presenter/sessionPresenter/workspaces'

export class RecordingSink implements EventSink {
  readonly events: { name: string; payload: unknown }[] = []
  emit<E extends EventDef>(event: E, payload: EventPayload<E>): void {
    // Validate like the real hub does, so a payload that breaks its contract fails the test.
    this.events.push({ name: event.name, payload: event.payload.parse(payload) })
  }
  named(name: string): unknown[] {
    return this.events.filter((e) => e.name === name).map((e) => e.payload)
  }
}

export interface SessionFixture {
  file: string
  sqlite: SqlitePresenter
  tape: TapePresenter
  sessions: SessionPresenter
  sink: RecordingSink
  close(): void
}

export function openSessionFixture(options: { now?: () => number } = {}): SessionFixture {
  const dir = mkdtempSync(join(tmpdir(), 'sessions-test-'))
  const file = join(dir, 'deepchat.db')
  const sqlite = new SqlitePresenter({ file })
  const tape = new TapePresenter({ sqlite, now: options.now })
  const sink = new RecordingSink()
  let n = 0
  const sessions = new SessionPresenter({
    sqlite,
    tape,
    events: sink,
    workspaces: new Workspaces({ dataDir: dir }),
    now: options.now,
    newId: () => `id${++n}`
  })
  return {
    file,
    sqlite,
    tape,
    sessions,
    sink,
    close() {
      sqlite.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
