// Tape benchmarks: append throughput, search latency over 100,000 entries, and the first page
// of a 10,000-message session. Each measures a plain-SQLite baseline in the same run.
import Database from 'better-sqlite3'
import fg from 'fast-glob'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { percentile, report, sample } from './lib'
import { SqlitePresenter } from '../src/main/presenter/sqlitePresenter'
import { TapePresenter } from '../src/main/presenter/tapePresenter'
import { SessionPresenter } from '../src/main/presenter/sessionPresenter'
import { Workspaces } from '../src/main/presenter/sessionPresenter/workspaces'
import type { TapeEntryInput } from '../src/shared/types/tape'

const SEARCH_ENTRIES = 100_000
const APPEND_ENTRIES = 50_000
const BATCH = 100
const SESSION_MESSAGES = 10_000

// A deterministic pseudo-random stream, so every run builds the same corpus.
let seed = 42
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]

// Real technical prose (the READMEs and docs shipped in node_modules) stands in for chat text:
// its word and trigram frequencies are what a coding assistant's tape looks like.
const root = join(import.meta.dirname, '..')
const corpusFiles = fg.sync('node_modules/**/*.md', { cwd: root, absolute: true }).sort().slice(0, 3_000)
const lines = corpusFiles
  .flatMap((file) => readFileSync(file, 'utf8').split('\n'))
  .map((line) => line.trim())
  .filter((line) => line.length > 30)
// Query words drawn by occurrence, so frequent words ("function", "options") are asked often.
const queryWords = lines
  .join(' ')
  .split(/[^A-Za-z]+/)
  .filter((w) => w.length >= 4)
const sentence = (parts: number) => Array.from({ length: parts }, () => pick(lines)).join('\n')

function entry(i: number): TapeEntryInput {
  const kind = i % 10 === 0 ? 'tool_call' : i % 10 === 1 ? 'tool_result' : 'message'
  return kind === 'message'
    ? {
        kind,
        name: i % 2 ? 'message/user' : 'message/assistant',
        payload: { role: i % 2 ? 'user' : 'assistant', text: sentence(3) }
      }
    : { kind, name: 'grep', payload: { toolCallId: `t${i}`, text: sentence(2) } }
}

function openTape(dir: string, name: string) {
  const sqlite = new SqlitePresenter({ file: join(dir, `${name}.db`) })
  return { sqlite, tape: new TapePresenter({ sqlite }) }
}

function benchAppend(dir: string): void {
  const { sqlite, tape } = openTape(dir, 'append')
  tape.createTape('bench')
  const inputs = Array.from({ length: APPEND_ENTRIES }, (_, i) => entry(i))
  tape.indexer.dispose() // measure the append path and the index catch-up separately
  let start = performance.now()
  for (let i = 0; i < inputs.length; i += BATCH) tape.append('bench', inputs.slice(i, i + BATCH))
  const appendSeconds = (performance.now() - start) / 1000
  const tapeRate = APPEND_ENTRIES / appendSeconds
  start = performance.now()
  tape.indexer.indexPending()
  const indexSeconds = (performance.now() - start) / 1000
  sqlite.close()

  // Baseline: the same rows into a plain table, no triggers, no index, no validation.
  const raw = new Database(join(dir, 'raw.db'))
  raw.pragma('journal_mode = WAL')
  raw.pragma('synchronous = NORMAL')
  raw.exec(
    'CREATE TABLE t (tape_id TEXT, entry_id INTEGER, kind TEXT, name TEXT, payload_json TEXT, created_at INTEGER)'
  )
  const insert = raw.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)')
  const batch = raw.transaction((rows: TapeEntryInput[], offset: number) =>
    rows.forEach((r, j) =>
      insert.run('bench', offset + j + 1, r.kind, r.name, JSON.stringify(r.payload), Date.now())
    )
  )
  start = performance.now()
  for (let i = 0; i < inputs.length; i += BATCH) batch(inputs.slice(i, i + BATCH), i)
  const rawRate = APPEND_ENTRIES / ((performance.now() - start) / 1000)
  raw.close()

  report(`append, ${BATCH} per transaction (index trails)`, tapeRate, 'entries/s', { min: 20_000 })
  console.log(
    `  baseline plain INSERT ${rawRate.toFixed(0)} entries/s; the tape append costs ${(rawRate / tapeRate).toFixed(2)}x (validation, ids, provenance, search text)`
  )
  console.log(
    `  trigram index catch-up ${(APPEND_ENTRIES / indexSeconds).toFixed(0)} entries/s; append + index end to end ${(APPEND_ENTRIES / (appendSeconds + indexSeconds)).toFixed(0)} entries/s (no goal)`
  )
}

async function benchSearch(dir: string): Promise<void> {
  const { sqlite, tape } = openTape(dir, 'search')
  tape.createTape('big')
  tape.createTape('noise') // another session's tape, so the tape filter matters
  for (let i = 0; i < SEARCH_ENTRIES; i += 1_000) {
    tape.append(
      'big',
      Array.from({ length: 1_000 }, (_, j) => entry(i + j))
    )
    tape.append(
      'noise',
      Array.from({ length: 100 }, (_, j) => entry(i + j + 7))
    )
  }
  tape.indexer.indexPending()
  const queries = Array.from({ length: 200 }, (_, i) =>
    i % 3 === 0 ? `${pick(queryWords)} ${pick(queryWords)}` : pick(queryWords)
  )
  const shortQueries = Array.from({ length: 60 }, (_, i) => pick(queryWords).slice(0, 1 + (i % 2)))
  let q = 0
  const times = await sample(() => tape.search('big', queries[q++ % queries.length], { limit: 20 }), 200, 10)
  q = 0
  const filtered = await sample(
    () =>
      tape.search('big', queries[q++ % queries.length], { limit: 20, kinds: ['tool_call', 'tool_result'] }),
    100,
    5
  )
  q = 0
  const short = await sample(
    () => tape.search('big', shortQueries[q++ % shortQueries.length], { limit: 20 }),
    60,
    5
  )

  // Baseline: what a tape without an index does — a newest-first substring scan, every word
  // ANDed, stopping at 20 hits (fast for common words, a full scan for rare ones; no ranking).
  const scanOne = sqlite.db.prepare(
    "SELECT entry_id FROM tape_entries WHERE tape_id = 'big' AND payload_json LIKE ? ORDER BY entry_id DESC LIMIT 20"
  )
  const scanTwo = sqlite.db.prepare(
    "SELECT entry_id FROM tape_entries WHERE tape_id = 'big' AND payload_json LIKE ? AND payload_json LIKE ? ORDER BY entry_id DESC LIMIT 20"
  )
  q = 0
  const baseline = await sample(
    () => {
      const words = queries[q++ % queries.length].split(' ').map((w) => `%${w}%`)
      return words.length === 1 ? scanOne.all(words[0]) : scanTwo.all(words[0], words[1])
    },
    100,
    3
  )
  sqlite.close()

  console.log(
    `  search over ${SEARCH_ENTRIES} entries (${queries.length} queries, words drawn by frequency):`
  )
  report('search p50', percentile(times, 50), 'ms', { max: 20 })
  report('search p95', percentile(times, 95), 'ms', { max: 20 })
  report('search p95, kind filter', percentile(filtered, 95), 'ms', { max: 20 })
  report('search p95, 1-2 character queries', percentile(short, 95), 'ms', { max: 20 })
  console.log(
    `  baseline substring scan p50 ${percentile(baseline, 50).toFixed(1)} ms, p95 ${percentile(baseline, 95).toFixed(1)} ms; ` +
      `ranked search p95 is ${(percentile(baseline, 95) / percentile(times, 95)).toFixed(1)}x faster at p95`
  )
}

async function benchFirstPage(dir: string): Promise<void> {
  const sqlite = new SqlitePresenter({ file: join(dir, 'session.db') })
  const tape = new TapePresenter({ sqlite })
  const sessions = new SessionPresenter({
    sqlite,
    tape,
    events: { emit: () => {} },
    workspaces: new Workspaces({ dataDir: dir })
  })
  const session = sessions.create({ title: 'long' })
  const build = performance.now()
  for (let i = 0; i < SESSION_MESSAGES / 2; i++) {
    sessions.messages.appendUserMessage(session.id, { text: sentence(20) })
    const assistant = sessions.messages.createAssistantMessage(session.id)
    sessions.messages.finalizeAssistantMessage(assistant.id, {
      status: 'sent',
      blocks: [
        { id: 'r', kind: 'reasoning_content', status: 'success', text: sentence(30) },
        { id: 'c', kind: 'content', status: 'success', text: sentence(80) }
      ]
    })
  }
  console.log(`  built ${SESSION_MESSAGES} messages in ${((performance.now() - build) / 1000).toFixed(1)} s`)
  const page = await sample(() => sessions.messages.list(session.id, { limit: 50 }), 50, 3)
  // Baseline: reading every message row of the session (what a "load all" UI would do).
  const all = sqlite.db.prepare('SELECT * FROM messages WHERE session_id = ? ORDER BY order_seq')
  const everything = await sample(() => all.all(session.id), 10, 2)
  sqlite.close()
  report('first page (50) of a 10,000-message session p95', percentile(page, 95), 'ms', { max: 50 })
  console.log(
    `  baseline: all ${SESSION_MESSAGES} message rows p50 ${percentile(everything, 50).toFixed(1)} ms (${(percentile(everything, 50) / percentile(page, 50)).toFixed(1)}x the page)`
  )
}

const dir = mkdtempSync(join(tmpdir(), 'tape-bench-'))
try {
  benchAppend(dir)
  await benchSearch(dir)
  await benchFirstPage(dir)
} finally {
  rmSync(dir, { recursive: true, force: true })
}
