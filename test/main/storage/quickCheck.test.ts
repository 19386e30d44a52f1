import { describe, expect, it } from 'vitest'
import { statSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { quickCheck } from '../../../src/main/presenter/sqlitePresenter/damaged'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

function databaseOf(rows: number): string {
  const file = join(tempDir(), 'deepchat.db')
  const db = new Database(file)
  db.exec('CREATE TABLE t (x TEXT)')
  const insert = db.prepare('INSERT INTO t VALUES (?)')
  db.transaction(() => {
    for (let i = 0; i < rows; i++) insert.run('y'.repeat(500))
  })()
  db.close()
  return file
}

describe("the start's quick_check (in a worker, within a budget)", () => {
  it('passes a healthy database', async () => {
    expect(await quickCheck(databaseOf(100), { budgetMs: 10_000 })).toEqual({ status: 'ok' })
  })

  it('finds a truncated database and a file that is not one', async () => {
    const file = databaseOf(5000)
    truncateSync(file, Math.floor(statSync(file).size / 2))
    expect(await quickCheck(file, { budgetMs: 10_000 })).toMatchObject({ status: 'damaged' })
    const text = join(tempDir(), 'notes.db')
    writeFileSync(text, 'plain text, not SQLite '.repeat(100))
    expect(await quickCheck(text, { budgetMs: 10_000 })).toEqual({
      status: 'damaged',
      reason: 'file is not a database'
    })
  })

  it('gives up when the budget runs out, so a slow check never holds the start', async () => {
    const started = Date.now()
    expect(await quickCheck(databaseOf(20_000), { budgetMs: 1 })).toEqual({ status: 'timeout' })
    expect(Date.now() - started).toBeLessThan(2000)
  })
})
