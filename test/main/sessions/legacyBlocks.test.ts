import { dirname } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MessageBlock, UNREADABLE_BLOCK_TEXT } from '@shared/types/blocks'
import { MessageRecord } from '@shared/types/session'
import { readTapeHistory } from '../../../src/main/presenter/agentRuntimePresenter/tapeHistory'
import { blocksToMessages } from '../../../src/main/presenter/agentRuntimePresenter/conversation'
import { SqlitePresenter } from '../../../src/main/presenter/sqlitePresenter'
import { TapePresenter } from '../../../src/main/presenter/tapePresenter'
import { SessionPresenter } from '../../../src/main/presenter/sessionPresenter'
import { Workspaces } from '../../../src/main/presenter/sessionPresenter/workspaces'
import { openSessionFixture, RecordingSink, type SessionFixture } from './helpers'

/** Rows as an older build wrote them: `data` was any JSON object, whatever the kind. */
const LEGACY_ROWS: {
  id: string
  kind: string
  status: string
  text: string
  toolCall?: string
  data?: string
}[] = [
  { id: 'c1', kind: 'content', status: 'success', text: 'Hello.', data: '{"providerOptions":"broken"}' },
  {
    id: 't1',
    kind: 'tool_call',
    status: 'success',
    text: '',
    toolCall: '{"id":"call-1","name":"read","params":"{}","response":"FILE"}',
    data: '{"argsComplete":true,"progress":42}'
  },
  { id: 'i1', kind: 'image', status: 'success', text: '', data: '{"mimeType":"image/png"}' },
  { id: 'a1', kind: 'action', status: 'pending', text: '', data: '{"actionType":"tool_call_permission"}' },
  { id: 'p1', kind: 'plan', status: 'success', text: '', data: 'not json at all' },
  { id: 'e1', kind: 'error', status: 'error', text: 'It broke.', data: '{"code":"legacy_code"}' },
  { id: 't2', kind: 'tool_call', status: 'success', text: 'orphan' }
]

describe('blocks stored by an older build', () => {
  let fx: SessionFixture
  let messageId: string
  let tapeId: string
  beforeEach(() => {
    fx = openSessionFixture()
    const session = fx.sessions.create()
    tapeId = session.tapeId
    fx.sessions.messages.appendUserMessage(session.id, { text: 'hi' })
    messageId = fx.sessions.messages.createAssistantMessage(session.id).id
    const insert = fx.sqlite.db.prepare(`INSERT INTO message_blocks
      (id, message_id, block_index, kind, status, text, tool_call_json, data_json, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, 1)`)
    LEGACY_ROWS.forEach((row, index) =>
      insert.run(
        row.id,
        messageId,
        index,
        row.kind,
        row.status,
        row.text,
        row.toolCall ?? null,
        row.data ?? null
      )
    )
  })
  afterEach(() => fx.close())

  it('loads every row as a block that fits its kind, keeping what can be kept', () => {
    const message = fx.sessions.messages.require(messageId)
    // What the routes send must pass the contract: nothing here may break loading the chat.
    expect(() => MessageRecord.parse(message)).not.toThrow()
    const byId = new Map(message.blocks.map((b) => [b.id, b]))
    expect(byId.get('c1')).toMatchObject({ kind: 'content', text: 'Hello.' })
    expect(byId.get('c1')).not.toHaveProperty('data')
    expect(byId.get('t1')).toMatchObject({
      kind: 'tool_call',
      status: 'success',
      toolCall: { id: 'call-1', name: 'read', response: 'FILE' }
    })
    for (const id of ['i1', 'a1', 'p1'])
      expect(byId.get(id)).toMatchObject({
        kind: 'error',
        text: UNREADABLE_BLOCK_TEXT,
        data: { code: 'unreadable_block' }
      })
    expect(byId.get('e1')).toMatchObject({
      kind: 'error',
      text: 'It broke.',
      data: { code: 'unreadable_block' }
    })
    expect(byId.get('t2')).toMatchObject({ kind: 'error', text: 'orphan' })
    expect(message.blocks.map((b) => b.id)).toEqual(LEGACY_ROWS.map((r) => r.id))
  })

  it('still loads after the database is reopened, and settles into facts the tape can read back', () => {
    fx.sqlite.close()
    const reopened = reopen(fx.file)
    const settled = reopened.sessions.messages.finalizeAssistantMessage(messageId, { status: 'sent' })
    expect(settled.blocks.every((b) => MessageBlock.safeParse(b).success)).toBe(true)
    const history = readTapeHistory(reopened.tape.entries(tapeId))
    const record = history.records.find((r) => r.messageId === messageId)!
    // The call kept its result, so the next request still shows the model what it read.
    const messages = blocksToMessages(record.blocks, { keepReasoning: false })
    expect(messages.find((m) => m.role === 'tool')).toMatchObject({ toolCallId: 'call-1', content: 'FILE' })
  })
})

describe('message facts written by an older build', () => {
  let fx: SessionFixture
  beforeEach(() => (fx = openSessionFixture()))
  afterEach(() => fx.close())

  it('reads their blocks leniently instead of dropping the message', () => {
    const session = fx.sessions.create()
    fx.tape.append(session.tapeId, {
      kind: 'message',
      name: 'message/assistant',
      payload: {
        messageId: 'old-1',
        orderSeq: 2,
        role: 'assistant',
        status: 'sent',
        blocks: [
          { id: 'x1', kind: 'content', status: 'success', text: 'Answer.', data: { providerOptions: 7 } },
          {
            id: 'x2',
            kind: 'tool_call',
            status: 'success',
            text: '',
            toolCall: { id: 'k', name: 'grep', params: '{}', response: 'hit' },
            data: { argsComplete: 'yes' }
          },
          { id: 'x3', kind: 'hologram', status: 'success', text: 'from the future' },
          'not a block'
        ]
      }
    })
    const record = readTapeHistory(fx.tape.entries(session.tapeId)).records.find(
      (r) => r.messageId === 'old-1'
    )!
    expect(record.blocks.map((b) => [b.id, b.kind])).toEqual([
      ['x1', 'content'],
      ['x2', 'tool_call'],
      ['x3', 'error']
    ])
    expect(record.blocks[2]).toMatchObject({ text: 'from the future', data: { code: 'unreadable_block' } })
  })
})

/** A new presenter stack on the same SQLite file: what the app sees after a restart. */
function reopen(file: string) {
  const sqlite = new SqlitePresenter({ file })
  const tape = new TapePresenter({ sqlite })
  const sessions = new SessionPresenter({
    sqlite,
    tape,
    events: new RecordingSink(),
    workspaces: new Workspaces({ dataDir: dirname(file) })
  })
  reopened.push(sqlite)
  return { sqlite, tape, sessions }
}
const reopened: SqlitePresenter[] = []
afterEach(() => {
  for (const sqlite of reopened.splice(0)) sqlite.close()
})
