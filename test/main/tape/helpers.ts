import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SqlitePresenter } from '../../../src/main/presenter/sqlitePresenter'
import { TapePresenter } from '../../../src/main/presenter/tapePresenter'

const root = join(import.meta.dirname, '..', '..', '..')
/** Runs a TypeScript file in a real child process (tsx resolves the `@shared` alias). */
export const workerCommand = (script: string, args: string[]) => ({
  file: process.execPath,
  args: ['--import', 'tsx', join(import.meta.dirname, 'fixtures', script), ...args],
  options: { cwd: root, env: { ...process.env, TSX_TSCONFIG_PATH: join(root, 'tsconfig.node.json') } }
})

export interface TapeFixture {
  dir: string
  file: string
  sqlite: SqlitePresenter
  tape: TapePresenter
  /** Opens another connection on the same file, as a second process would. */
  reopen(): { sqlite: SqlitePresenter; tape: TapePresenter }
  close(): void
}

export function openTapeFixture(options: { now?: () => number } = {}): TapeFixture {
  const dir = mkdtempSync(join(tmpdir(), 'tape-test-'))
  const file = join(dir, 'deepchat.db')
  const opened: SqlitePresenter[] = []
  const open = () => {
    const sqlite = new SqlitePresenter({ file })
    opened.push(sqlite)
    return { sqlite, tape: new TapePresenter({ sqlite, now: options.now }) }
  }
  const first = open()
  return {
    dir,
    file,
    ...first,
    reopen: open,
    close() {
      for (const db of opened) db.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }
}

export function message(role: 'user' | 'assistant', text: string, extra: Record<string, unknown> = {}) {
  return { kind: 'message' as const, name: `message/${role}`, payload: { role, text, ...extra } }
}
