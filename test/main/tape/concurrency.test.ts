import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTapeFixture, message, workerCommand, type TapeFixture } from './helpers'
import { until } from '../../helpers/until'

function entryIds(fx: TapeFixture, tapeId: string): number[] {
  return (
    fx.sqlite.db
      .prepare('SELECT entry_id FROM tape_entries WHERE tape_id = ? ORDER BY entry_id')
      .all(tapeId) as {
      entry_id: number
    }[]
  ).map((r) => r.entry_id)
}

describe('tape appends from several connections', () => {
  let fx: TapeFixture
  beforeEach(() => {
    fx = openTapeFixture()
    fx.tape.createTape('shared')
  })
  afterEach(() => fx.close())

  it('keeps ids gap-free when two connections interleave appends', () => {
    const second = fx.reopen()
    for (let i = 0; i < 50; i++) {
      fx.tape.append('shared', message('user', `a${i}`))
      second.tape.append('shared', [message('user', `b${i}`), message('assistant', `b${i}'`)])
    }
    expect(entryIds(fx, 'shared')).toEqual(Array.from({ length: 150 }, (_, i) => i + 1))
    expect(second.tape.info('shared').headEntryId).toBe(150)
  })

  it('keeps ids gap-free and unique when two processes append at the same time', async () => {
    // Both wait at a start line: on a loaded machine one could otherwise finish before the other boots.
    const go = join(fx.dir, 'go')
    const run = (name: string) => {
      const command = workerCommand('appendWorker.ts', [fx.file, 'shared', name, '100', '5', go])
      return execa(command.file, command.args, command.options)
    }
    const workers = Promise.all([run('A'), run('B')])
    await until(() => existsSync(`${go}.A.ready`) && existsSync(`${go}.B.ready`), {
      what: 'both workers are ready',
      timeoutMs: 60_000,
      intervalMs: 10
    })
    writeFileSync(go, '')
    const [a, b] = await workers
    expect(a.stdout).toContain('done')
    expect(b.stdout).toContain('done')
    const ids = entryIds(fx, 'shared')
    expect(ids).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1))
    // Each process's batches landed whole: its 5 entries sit next to each other.
    const rows = fx.sqlite.db
      .prepare(
        "SELECT entry_id, json_extract(meta_json, '$.worker') AS w, json_extract(meta_json, '$.index') AS i FROM tape_entries WHERE tape_id = 'shared' ORDER BY entry_id"
      )
      .all() as { entry_id: number; w: string; i: number }[]
    for (let start = 0; start < rows.length; start += 5) {
      const batch = rows.slice(start, start + 5)
      expect(new Set(batch.map((r) => r.w)).size).toBe(1)
      expect(batch.map((r) => r.i)).toEqual([0, 1, 2, 3, 4])
    }
    // The two writers really overlapped: the tape switches between them more than once.
    const switches = rows.filter((r, i) => i > 0 && r.w !== rows[i - 1].w).length
    expect(switches).toBeGreaterThan(1)
    const created = (
      fx.sqlite.db
        .prepare("SELECT created_at FROM tape_entries WHERE tape_id = 'shared' ORDER BY entry_id")
        .all() as {
        created_at: number
      }[]
    ).map((r) => r.created_at)
    expect(created).toEqual([...created].sort((x, y) => x - y))
  })
})
