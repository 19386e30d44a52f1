import Database from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, DATABASE_FILE } from '../../../src/main/presenter'
import { foldBatches } from '../../../src/main/presenter/sessionPresenter/streamJournal'
import type { ScriptStep } from '../../fixtures/llm/fakeLlm'
import { eventsOf, call, useLoopHarness } from './helpers'
import { until } from '../../helpers/until'
import { chatStreamDelta } from '@shared/contracts/events/chat.events'
import { chatGetMessage } from '@shared/contracts/routes/chat.routes'

const harness = useLoopHarness()

/** Text in `count` small deltas with pauses, so the run sends many batches. */
function slowText(count: number, word: (i: number) => string): ScriptStep[] {
  return Array.from({ length: count }, (_, i): ScriptStep[] => [
    { type: 'text', text: [word(i)] },
    { type: 'delay', ms: 4 }
  ]).flat()
}

/** A second connection on the app's file, as another process would see it. */
function openReader(dataDir: string): Database.Database {
  return new Database(join(dataDir, DATABASE_FILE), { readonly: true })
}

describe('durable deltas', () => {
  it('commits every delta batch to SQLite before the renderer is sent it', async () => {
    const h = await harness([{ steps: slowText(60, (i) => `w${i} `) }])
    const seen: Array<{ seq: number; committed: number[]; lastOps: unknown }> = []
    let reader: Database.Database | undefined
    const off = h.presenters.events.subscribe((name, raw) => {
      if (name !== chatStreamDelta.name) return
      const payload = chatStreamDelta.payload.parse(raw)
      if (payload.runId.startsWith('answer-')) return
      reader ??= openReader(h.dataDir)
      const rows = reader
        .prepare('SELECT seq, ops_json FROM message_stream_deltas WHERE message_id = ? ORDER BY id')
        .all(payload.messageId) as { seq: number; ops_json: string }[]
      seen.push({
        seq: payload.seq,
        committed: rows.map((r) => r.seq),
        lastOps: rows.length ? JSON.parse(rows[rows.length - 1].ops_json) : null
      })
    })
    try {
      const { sessionId } = await h.send('count slowly')
      await h.idle(sessionId)
    } finally {
      off()
      reader?.close()
    }
    const deltas = eventsOf(h, chatStreamDelta)
    expect(seen.length).toBeGreaterThan(3)
    seen.forEach((s, i) => {
      // When batch n reaches the renderer, batches 1..n are already committed (seen from another connection).
      expect(s.committed).toEqual(Array.from({ length: s.seq }, (_, k) => k + 1))
      expect(s.lastOps).toEqual(JSON.parse(JSON.stringify(deltas[i].ops)))
    })
  })

  it('reads a streaming message back from SQLite exactly as the renderer has it', async () => {
    const h = await harness([{ steps: [...slowText(20, (i) => `part${i} `), { type: 'stall' }] }])
    const { assistantMessageId } = await h.send('stream then stall')
    await until(() => h.llm.generationRequests().length === 1)
    await until(() => eventsOf(h, chatStreamDelta).some((d) => JSON.stringify(d.ops).includes('part19')))
    const view = h.presenters.agentRuntime.getMessage(assistantMessageId)
    const stored = h.presenters.sessions.messages.require(assistantMessageId)
    expect(stored.status).toBe('streaming')
    expect(stored.blocks.map((b) => [b.kind, b.text])).toEqual(view.blocks.map((b) => [b.kind, b.text]))
    expect(stored.blocks[0].text).toContain('part0 part1 ')
  })

  it('after a crash keeps the streamed text and a tool call cut off mid-arguments', async () => {
    const h = await harness([
      {
        steps: [
          { type: 'text', text: ['Let me ', 'look.'] },
          { type: 'tool_calls', calls: [{ id: 'c1', name: 'read', argumentChunks: ['{"path":"READ'] }] },
          { type: 'stall' }
        ]
      }
    ])
    const { sessionId, assistantMessageId } = await h.send('read it')
    await until(() => eventsOf(h, chatStreamDelta).some((d) => JSON.stringify(d.ops).includes('READ')))
    // A second app on the same data folder sees what a start after a kill -9 would see.
    const after = createPresenters(createNodePlatform({ dataDir: h.dataDir, log: () => {} }), {
      log: () => {}
    })
    try {
      const message = after.sessions.messages.require(assistantMessageId)
      expect(message.status).toBe('error')
      expect(message.blocks.map((b) => b.kind)).toEqual(['content', 'tool_call', 'error'])
      expect(message.blocks[0].text).toBe('Let me look.')
      expect(message.blocks[1]).toMatchObject({
        status: 'error',
        toolCall: { id: 'c1', name: 'read', params: '{"path":"READ' }
      })
      expect(message.blocks[2]).toMatchObject({ kind: 'error', data: { code: 'interrupted' } })
      expect(after.sessions.require(sessionId).status).toBe('idle')
      // Recovery folded the journal into the blocks and dropped it; the tape has the message fact.
      const journal = after.sqlite.db
        .prepare('SELECT count(*) AS n FROM message_stream_deltas WHERE message_id = ?')
        .get(assistantMessageId) as { n: number }
      expect(journal.n).toBe(0)
      const facts = after.tape.entries(message.sessionId).filter((e) => e.kind === 'message')
      expect(JSON.stringify(facts.at(-1)?.payload)).toContain('{\\"path\\":\\"READ')
    } finally {
      await after.dispose()
    }
  })

  it('leaves no journal behind once a message settles', async () => {
    const h = await harness([{ steps: slowText(10, (i) => `x${i} `) }])
    const { sessionId, assistantMessageId } = await h.send('short')
    await h.idle(sessionId)
    const { message } = await call(h, chatGetMessage, { messageId: assistantMessageId })
    expect(message.status).toBe('sent')
    expect(message.blocks[0].text).toBe(Array.from({ length: 10 }, (_, i) => `x${i} `).join(''))
    const rows = h.presenters.sqlite.db.prepare('SELECT count(*) AS n FROM message_stream_deltas').get() as {
      n: number
    }
    expect(rows.n).toBe(0)
  })
})

describe('foldBatches', () => {
  const at = 1
  it('applies appends and upserts in order and skips what it cannot read', () => {
    const blocks = foldBatches(
      [{ id: 'a', kind: 'content', status: 'pending', text: 'He', createdAt: at, updatedAt: at }],
      [
        [{ op: 'append', blockId: 'a', field: 'text', text: 'llo' }],
        [
          {
            op: 'upsert',
            block: {
              id: 'b',
              kind: 'tool_call',
              status: 'pending',
              text: '',
              toolCall: { id: 'c', name: 'read', params: '' },
              createdAt: at,
              updatedAt: at
            }
          },
          { op: 'append', blockId: 'b', field: 'params', text: '{"pa' },
          { op: 'append', blockId: 'missing', field: 'text', text: 'lost' },
          {
            op: 'upsert',
            block: {
              id: 'a',
              kind: 'content',
              status: 'success',
              text: 'Hello!',
              createdAt: at,
              updatedAt: at
            }
          }
        ]
      ]
    )
    expect(blocks.map((b) => [b.id, b.status, b.text])).toEqual([
      ['a', 'success', 'Hello!'],
      ['b', 'pending', '']
    ])
    expect(blocks[1]).toMatchObject({ toolCall: { params: '{"pa' } })
  })
})
