import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BridgeClient } from '@renderer/api/bridge'
import { chatStreamDelta } from '@shared/contracts/events/chat.events'
import { chatGetMessage, chatSendMessage } from '@shared/contracts/routes/chat.routes'
import { providersAdd, providersSetDefault } from '@shared/contracts/routes/providers.routes'
import type { MessageBlock } from '@shared/types/blocks'
import { DATABASE_FILE } from '../../src/main/presenter'
import { foldBatches } from '../../src/main/presenter/sessionPresenter/streamJournal'
import { startFakeLlm, type FakeLlm, type ScriptStep } from '../fixtures/llm/fakeLlm'
import { serve, type ServedHost } from './helpers/host'
import { hostBridge, pickFolder } from './helpers/chatHost'

/**
 * Durable deltas from outside: the built host streams a ~50k-token reply to a WebSocket client
 * and is SIGKILLed at random moments. After each restart, what SQLite kept is at least what
 * the client had been sent, the file is sound and no sequence has a gap.
 */
const TOKENS = 50_000
const KILLS = 10
const token = (i: number) => `w${i} `

/** The reply: ten tokens a delta, with a short pause every thousand tokens so it spans seconds. */
function longReply(): ScriptStep[] {
  const steps: ScriptStep[] = []
  for (let start = 0; start < TOKENS; start += 1_000) {
    const deltas = Array.from({ length: 100 }, (_, d) =>
      Array.from({ length: 10 }, (_, k) => token(start + d * 10 + k)).join('')
    )
    steps.push({ type: 'text', text: deltas }, { type: 'delay', ms: 20 })
  }
  return steps
}

let llm: FakeLlm
let dataDir: string
let workspace: string
const hosts: ServedHost[] = []

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-crash-'))
  workspace = mkdtempSync(join(tmpdir(), 'deepchat-e2e-crash-ws-'))
  const steps = longReply()
  llm = await startFakeLlm({ kind: 'openai', script: () => ({ steps }) })
})

afterAll(async () => {
  for (const host of hosts) await host.kill()
  await llm?.close()
  for (const dir of [dataDir, workspace]) if (dir) rmSync(dir, { recursive: true, force: true })
})

async function start(): Promise<{ host: ServedHost; bridge: BridgeClient }> {
  const host = await serve(dataDir)
  hosts.push(host)
  return { host, bridge: hostBridge(host) }
}

async function addFakeProvider(bridge: BridgeClient): Promise<void> {
  await bridge.call(providersAdd, {
    provider: {
      id: 'fake-openai',
      kind: 'openai',
      name: 'Fake OpenAI',
      baseUrl: llm.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [
        {
          id: 'fake-model',
          name: 'Fake model',
          contextLength: 128_000,
          maxOutputTokens: 100_000,
          vision: false,
          toolCalling: true,
          reasoning: false,
          enabled: true
        }
      ],
      maxRetries: 0
    }
  })
  await bridge.call(providersSetDefault, {
    defaultModel: { providerId: 'fake-openai', modelId: 'fake-model' }
  })
}

/** Sends a message and kills the host once the client has been sent `killAfterChars` of text. */
async function streamAndKill(host: ServedHost, bridge: BridgeClient, killAfterChars: number) {
  let blocks: MessageBlock[] = []
  let messageId: string | null = null
  let lastSeq = 0
  let reached!: () => void
  const killed = new Promise<void>((resolve) => (reached = resolve))
  const received = () =>
    blocks
      .filter((b) => b.kind === 'content')
      .map((b) => b.text)
      .join('')
  const off = bridge.on(chatStreamDelta, (delta) => {
    if (delta.messageId !== messageId) return
    expect(delta.seq).toBe(lastSeq + 1) // the client itself sees no gap
    lastSeq = delta.seq
    blocks = foldBatches(blocks, [delta.ops])
    if (received().length >= killAfterChars) reached()
  })
  const turn = await bridge.call(chatSendMessage, {
    text: 'Write a very long answer.',
    newSession: { workspaceDir: await pickFolder(bridge, workspace) }
  })
  messageId = turn.assistantMessageId
  await killed
  await host.kill()
  off()
  hosts.splice(hosts.indexOf(host), 1)
  return { messageId: messageId!, text: received(), lastSeq }
}

/** Opens the file as the next start would (read-write, so WAL recovery runs). */
function inspect<T>(read: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, DATABASE_FILE))
  try {
    return read(db)
  } finally {
    db.close()
  }
}

function gapsIn(db: Database.Database): string[] {
  const gaps: string[] = []
  const tapes = db
    .prepare(
      'SELECT tape_id, COUNT(*) n, MIN(entry_id) lo, MAX(entry_id) hi FROM tape_entries GROUP BY tape_id'
    )
    .all() as {
    tape_id: string
    n: number
    lo: number
    hi: number
  }[]
  for (const t of tapes)
    if (t.lo !== 1 || t.hi !== t.n) gaps.push(`tape ${t.tape_id}: ${t.n} entries, ids ${t.lo}..${t.hi}`)
  const blocks = db
    .prepare(
      'SELECT message_id, COUNT(*) n, MIN(block_index) lo, MAX(block_index) hi FROM message_blocks GROUP BY message_id'
    )
    .all() as { message_id: string; n: number; lo: number; hi: number }[]
  for (const b of blocks)
    if (b.lo !== 0 || b.hi !== b.n - 1) gaps.push(`blocks of ${b.message_id}: ${b.lo}..${b.hi} for ${b.n}`)
  const journal = db
    .prepare(
      'SELECT message_id, run_id, COUNT(*) n, MIN(seq) lo, MAX(seq) hi FROM message_stream_deltas GROUP BY message_id, run_id'
    )
    .all() as { message_id: string; n: number; lo: number; hi: number }[]
  for (const j of journal)
    if (j.lo !== 1 || j.hi !== j.n) gaps.push(`journal of ${j.message_id}: ${j.lo}..${j.hi} for ${j.n}`)
  return gaps
}

describe('a kill -9 while a long reply streams', () => {
  it(`keeps at least what the client was sent, ${KILLS} times over, with a sound file and no gaps`, async () => {
    let { host, bridge } = await start()
    await addFakeProvider(bridge)
    const replyChars = Array.from({ length: TOKENS }, (_, i) => token(i)).join('').length
    const moments = Array.from({ length: KILLS }, () => 1 + Math.floor(Math.random() * replyChars * 0.95))
    for (const killAfter of moments) {
      const seen = await streamAndKill(host, bridge, killAfter)
      const atKill = inspect((db) => ({
        integrity: db.pragma('integrity_check', { simple: true }),
        gaps: gapsIn(db),
        journalSeq: (
          db
            .prepare('SELECT MAX(seq) AS s FROM message_stream_deltas WHERE message_id = ?')
            .get(seen.messageId) as {
            s: number | null
          }
        ).s
      }))
      expect(atKill.integrity, `kill after ${killAfter} characters`).toBe('ok')
      expect(atKill.gaps).toEqual([])
      // Every batch the client got was committed first.
      expect(atKill.journalSeq ?? 0).toBeGreaterThanOrEqual(seen.lastSeq)

      ;({ host, bridge } = await start()) // recovery runs at start
      const { message } = await bridge.call(chatGetMessage, { messageId: seen.messageId })
      expect(message.status).toBe('error')
      const kept = message.blocks
        .filter((b) => b.kind === 'content')
        .map((b) => b.text)
        .join('')
      expect(kept.length).toBeGreaterThanOrEqual(seen.text.length)
      expect(kept.startsWith(seen.text), `kill after ${killAfter} characters`).toBe(true)
      expect(message.blocks.at(-1)).toMatchObject({ kind: 'error', data: { code: 'interrupted' } })
      const afterRecovery = inspect((db) => ({
        integrity: db.pragma('integrity_check', { simple: true }),
        gaps: gapsIn(db),
        journalRows: (db.prepare('SELECT COUNT(*) AS n FROM message_stream_deltas').get() as { n: number }).n
      }))
      expect(afterRecovery).toEqual({ integrity: 'ok', gaps: [], journalRows: 0 })
    }
    expect(llm.generationRequests()).toHaveLength(KILLS)
  }, 300_000)
})
