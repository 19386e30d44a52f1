import { describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { SqlitePresenter } from '../../../src/main/presenter/sqlitePresenter'
import { allMigrations } from '../../../src/main/presenter/sqlitePresenter/migrations'
import type { Migration } from '../../../src/main/presenter/sqlitePresenter/migrations/types'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

describe('SqlitePresenter', () => {
  it('opens one file in WAL mode with foreign keys on', () => {
    const sqlite = new SqlitePresenter({ file: join(tempDir(), 'app.db') })
    expect(sqlite.db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(sqlite.db.pragma('foreign_keys', { simple: true })).toBe(1)
    sqlite.close()
  })

  it('compiles each statement text once, hands out plain rows again after a pluck, and never shares a running statement', () => {
    const sqlite = new SqlitePresenter({ file: join(tempDir(), 'app.db'), migrations: [] })
    const { db } = sqlite
    db.exec('CREATE TABLE t (x INTEGER, y TEXT)')
    const insert = db.prepare('INSERT INTO t (x, y) VALUES (?, ?)')
    for (const [x, y] of [
      [1, 'a'],
      [2, 'b']
    ] as const)
      insert.run(x, y)
    expect(db.prepare('INSERT INTO t (x, y) VALUES (?, ?)')).toBe(insert)

    const select = 'SELECT x, y FROM t ORDER BY x'
    expect(db.prepare(select).pluck().all()).toEqual([1, 2])
    // The same text elsewhere gets whole rows, not the plucked column.
    expect(db.prepare(select).all()).toEqual([
      { x: 1, y: 'a' },
      { x: 2, y: 'b' }
    ])
    // Inside an iteration the same text is a statement of its own (a busy one cannot run twice).
    const pairs: unknown[] = []
    for (const row of db.prepare(select).iterate()) pairs.push([row, db.prepare(select).all().length])
    expect(pairs).toEqual([
      [{ x: 1, y: 'a' }, 2],
      [{ x: 2, y: 'b' }, 2]
    ])
    // Nested transactions through the one wrapper: the inner rolls back alone.
    sqlite.transaction(() => {
      insert.run(3, 'c')
      expect(() =>
        sqlite.transaction(() => {
          insert.run(4, 'd')
          throw new Error('inner fails')
        })
      ).toThrow('inner fails')
    })
    expect(db.prepare('SELECT x FROM t ORDER BY x').pluck().all()).toEqual([1, 2, 3])
    sqlite.close()
  })

  it('applies every migration once and nothing again on restart', () => {
    const file = join(tempDir(), 'app.db')
    const runs: number[] = []
    const counted: Migration[] = [
      { version: 1, name: 'one', up: (db) => (runs.push(1), db.exec('CREATE TABLE a (x INTEGER)')) },
      { version: 2, name: 'two', up: (db) => (runs.push(2), db.exec('CREATE TABLE b (y INTEGER)')) }
    ]
    new SqlitePresenter({ file, migrations: counted }).close()
    const reopened = new SqlitePresenter({ file, migrations: counted })
    expect(runs).toEqual([1, 2])
    expect(reopened.appliedMigrations().map((m) => m.version)).toEqual([1, 2])
    reopened.close()
  })

  it('applies only the new migration when one is added', () => {
    const file = join(tempDir(), 'app.db')
    const first: Migration = { version: 1, name: 'one', up: (db) => db.exec('CREATE TABLE a (x INTEGER)') }
    new SqlitePresenter({ file, migrations: [first] }).close()
    let ranSecond = 0
    const second: Migration = { version: 2, name: 'two', up: () => void ranSecond++ }
    const sqlite = new SqlitePresenter({ file, migrations: [first, second] })
    expect(ranSecond).toBe(1)
    expect(sqlite.appliedMigrations().map((m) => m.name)).toEqual(['one', 'two'])
    sqlite.close()
  })

  it('rolls back a failing migration completely and records nothing', () => {
    const file = join(tempDir(), 'app.db')
    const broken: Migration = {
      version: 1,
      name: 'broken',
      up: (db) => {
        db.exec('CREATE TABLE half (x INTEGER)')
        throw new Error('migration bug')
      }
    }
    expect(() => new SqlitePresenter({ file, migrations: [broken] })).toThrow('migration bug')
    const sqlite = new SqlitePresenter({ file, migrations: [] })
    expect(sqlite.appliedMigrations()).toEqual([])
    expect(sqlite.db.prepare("SELECT name FROM sqlite_master WHERE name = 'half'").get()).toBeUndefined()
    sqlite.close()
  })

  it('refuses migrations out of order', () => {
    const migrations: Migration[] = [
      { version: 2, name: 'b', up: () => {} },
      { version: 1, name: 'a', up: () => {} }
    ]
    expect(() => new SqlitePresenter({ file: join(tempDir(), 'x.db'), migrations })).toThrow(/out of order/)
  })

  it('ships migrations numbered strictly increasing', () => {
    const versions = allMigrations.map((m) => m.version)
    expect(versions).toEqual([...versions].sort((a, b) => a - b))
    expect(new Set(versions).size).toBe(versions.length)
  })

  it('transaction() commits on success and rolls back on throw', () => {
    const sqlite = new SqlitePresenter({ file: join(tempDir(), 'app.db') })
    sqlite.db.exec('CREATE TABLE t (v INTEGER)')
    sqlite.transaction((db) => db.prepare('INSERT INTO t VALUES (1)').run())
    expect(() =>
      sqlite.transaction((db) => {
        db.prepare('INSERT INTO t VALUES (2)').run()
        throw new Error('abort')
      })
    ).toThrow('abort')
    expect(sqlite.db.prepare('SELECT v FROM t').all()).toEqual([{ v: 1 }])
    sqlite.close()
  })
})
