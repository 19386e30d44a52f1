import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SqlitePresenter } from '../../../src/main/presenter/sqlitePresenter'
import { TapePresenter } from '../../../src/main/presenter/tapePresenter'
import { settingsMigration } from '../../../src/main/presenter/sqlitePresenter/migrations/001_settings'
import { createSessionsTapeSchema } from '../../../src/main/presenter/sqlitePresenter/migrations/002_sessions_tape'
import { message } from './helpers'

// SQLite builds without the trigram tokenizer get unicode61; search must still work there.
describe('tape search on a unicode61 index', () => {
  let dir: string
  let sqlite: SqlitePresenter
  let tape: TapePresenter
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tape-u61-'))
    sqlite = new SqlitePresenter({
      file: join(dir, 'db.sqlite'),
      migrations: [
        settingsMigration,
        { version: 2, name: 'sessions_tape', up: (db) => createSessionsTapeSchema(db, 'unicode61') }
      ]
    })
    tape = new TapePresenter({ sqlite })
    tape.createTape('s1')
    tape.append('s1', [
      message('user', 'Refactor the tokenizer module'),
      message('assistant', 'Tokenizers split text; 分词器 done'),
      { kind: 'tool_result', name: 'grep', payload: { response: 'src/tokenizer.ts:12' } }
    ])
  })
  afterEach(() => {
    sqlite.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('reports the tokenizer and finds words and word prefixes through the index', () => {
    expect(tape.info('s1').tokenizer).toBe('unicode61')
    expect(
      tape
        .search('s1', 'tokenizer')
        .map((h) => [h.entryId, h.matchedBy])
        .sort()
    ).toEqual([
      [1, 'fts'],
      [2, 'fts'],
      [3, 'fts']
    ])
    expect(tape.search('s1', 'refac').map((h) => h.entryId)).toEqual([1])
  })

  it('falls back to substrings for what word tokens cannot match', () => {
    expect(tape.search('s1', 'okeniz').map((h) => [h.entryId, h.matchedBy])).toEqual([
      [3, 'substring'],
      [2, 'substring'],
      [1, 'substring']
    ])
    expect(tape.search('s1', '词').map((h) => h.entryId)).toEqual([2])
    expect(tape.search('s1', '12', { kinds: ['tool_result'] }).map((h) => h.entryId)).toEqual([3])
  })
})
