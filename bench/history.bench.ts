// History search as the user types, through the bridge route the UI calls
// (`sessions.searchHistory`: input validation, every regular session's tape, message facts only,
// one hit per message of the chosen branch, snippets), over 100,000 tape entries in 200 chats.
// Queries are what typing produces: 1 and 2 characters first, then whole words.
// Goal (absolute, from the keystroke: the answer must be back before the next key, typed
// ~100 ms apart, with room to paint): p95 <= 30 ms for 1-2 characters, <= 20 ms for words.
// Printed beside it, measured in the same run: the plain substring scan a tape without an
// index does (newest first, LIMIT 20) over the same rows, as the floor's scale.
import { registerRawImports } from './rawImports'
import fg from 'fast-glob'
import { closeSync, fsyncSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { percentile, report, sample } from './lib'

registerRawImports()

const { createNodePlatform } = await import('../src/main/platform/nodePlatform')
const { createPresenters } = await import('../src/main/presenter/index')
const { createRouter } = await import('../src/main/routes/index')

const ENTRIES = 100_000
const SESSIONS = 200
const GOAL_SHORT_P95_MS = 30
const GOAL_WORDS_P95_MS = 20

// A deterministic pseudo-random stream, so every run builds the same history.
let seed = 7
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]

// Real technical prose (READMEs shipped in node_modules) stands in for chat text.
const root = join(import.meta.dirname, '..')
const lines = fg
  .sync('node_modules/**/*.md', { cwd: root, absolute: true })
  .sort()
  .slice(0, 2_000)
  .flatMap((file) => readFileSync(file, 'utf8').split('\n'))
  .map((line) => line.trim())
  .filter((line) => line.length > 30)
const words = lines
  .join(' ')
  .split(/[^A-Za-z]+/)
  .filter((w) => w.length >= 4)
const sentence = (parts: number) => Array.from({ length: parts }, () => pick(lines)).join('\n')

const dataDir = process.env.HISTORY_BENCH_DIR ?? mkdtempSync(join(tmpdir(), 'history-bench-'))
const openApp = () => createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
const builder = openApp()
const { sessions, tape, sqlite } = builder

// Each exchange puts a user message, an assistant message and its final revision on the tape,
// plus tool calls and results, as a coding chat does.
const build = performance.now()
const countEntries = () =>
  (sqlite.db.prepare('SELECT count(*) AS n FROM tape_entries').get() as { n: number }).n
const perSession = Math.ceil(ENTRIES / SESSIONS)
// HISTORY_BENCH_DIR keeps the built history between runs (for profiling); it is built once.
for (let s = countEntries() >= ENTRIES ? SESSIONS : 0; s < SESSIONS; s++) {
  const session = sessions.create({ title: `Chat ${s}: ${pick(words)} ${pick(words)}` })
  sqlite.db.transaction(() => {
    let entries = 0
    let perExchange = 0
    while (entries < perSession) {
      const before = perExchange ? 0 : countEntries()
      sessions.messages.appendUserMessage(session.id, { text: sentence(2) })
      const assistant = sessions.messages.createAssistantMessage(session.id)
      sessions.messages.finalizeAssistantMessage(assistant.id, {
        status: 'sent',
        blocks: [{ id: 'c', kind: 'content', status: 'success', text: sentence(4) }]
      })
      tape.append(session.tapeId, [
        { kind: 'tool_call', name: 'grep', payload: { toolCallId: `t${entries}`, text: sentence(1) } },
        { kind: 'tool_result', name: 'grep', payload: { toolCallId: `t${entries}`, text: sentence(2) } }
      ])
      perExchange ||= countEntries() - before
      entries += perExchange
    }
  })()
}
tape.indexer.indexPending()
const entries = countEntries()
console.log(
  `built ${entries} tape entries in ${SESSIONS} chats in ${((performance.now() - build) / 1000).toFixed(1)} s`
)
// A user searches a history written over weeks, in an app started on it: the searches run in a
// freshly opened app, not in the process (and heap) that just wrote 100,000 entries.
await builder.dispose()
// ...and whose writes reached the disk long ago: the 200 MB just written are flushed first, so
// the kernel's writeback does not compete with the searches.
for (const file of fg.sync('deepchat.db*', { cwd: dataDir, absolute: true })) {
  const fd = openSync(file, 'r')
  fsyncSync(fd)
  closeSync(fd)
}
const presenters = openApp()
const router = createRouter(presenters)

const CTX = { transport: 'test' as const, clientId: 'bench' }
async function searchHistory(query: string): Promise<number> {
  const result = await router.invoke('sessions.searchHistory', { query }, CTX)
  if (!result.ok) throw new Error(`${query}: ${result.error.message}`)
  return (result.data as { hits: unknown[] }).hits.length
}

// What typing a word produces, key by key: its first letter, its first two, then the word.
seed = 99 // the same queries whether the history was built now or kept from a run before
const typed = Array.from({ length: 60 }, () => pick(words).toLowerCase())
const short = typed.flatMap((w) => [w.slice(0, 1), w.slice(0, 2)])
const whole = typed.map((w, i) => (i % 3 === 0 ? `${w} ${pick(words).toLowerCase()}` : w))
let hits = 0
for (const q of [...short.slice(0, 4), ...whole.slice(0, 4)]) hits += await searchHistory(q)
if (hits === 0) throw new Error('no query found anything: the history was not built')
let q = 0
const shortTimes = await sample(() => searchHistory(short[q++ % short.length]), short.length, 4)
q = 0
const wordTimes = await sample(() => searchHistory(whole[q++ % whole.length]), 120, 4)

const scan = presenters.sqlite.db.prepare(
  "SELECT entry_id FROM tape_entries WHERE kind = 'message' AND search_text LIKE ? ORDER BY seq DESC LIMIT 20"
)
q = 0
const scanTimes = await sample(() => scan.all(`%${whole[q++ % whole.length].split(' ')[0]}%`), 60, 3)

console.log(
  `  route p50: 1-2 characters ${percentile(shortTimes, 50).toFixed(1)} ms, words ${percentile(wordTimes, 50).toFixed(1)} ms; ` +
    `plain substring scan (LIMIT 20, no ranking, no snippets) p50 ${percentile(scanTimes, 50).toFixed(1)} ms, p95 ${percentile(scanTimes, 95).toFixed(1)} ms`
)
const a = report('sessions.searchHistory p95, 1-2 characters', percentile(shortTimes, 95), 'ms', {
  max: GOAL_SHORT_P95_MS
})
const b = report('sessions.searchHistory p95, words', percentile(wordTimes, 95), 'ms', {
  max: GOAL_WORDS_P95_MS
})
await presenters.dispose()
if (!process.env.HISTORY_BENCH_DIR) rmSync(dataDir, { recursive: true, force: true })
process.exit(a && b ? 0 : 1)
