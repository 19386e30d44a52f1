import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openSessionFixture, type SessionFixture } from './helpers'

describe('sessions', () => {
  let fx: SessionFixture
  let clock = 1_000
  beforeEach(() => {
    clock = 1_000
    fx = openSessionFixture({ now: () => clock++ })
  })
  afterEach(() => fx.close())

  it('creates a session with its own tape that starts with session/start', () => {
    const session = fx.sessions.create({
      title: '  Plans ',
      workspaceDir: '/tmp/w',
      permissionMode: 'accept_edits'
    })
    expect(session).toMatchObject({
      kind: 'regular',
      title: 'Plans',
      tapeId: session.id,
      status: 'idle',
      pinned: false
    })
    expect(fx.tape.entries(session.tapeId).map((e) => [e.kind, e.name])).toEqual([
      ['anchor', 'session/start']
    ])
    expect(fx.sink.named('sessions.list.updated')).toEqual([{ sessionIds: [session.id], reason: 'created' }])
    expect(fx.sessions.create().title).toBe('New Chat')
    expect(() => fx.sessions.create({ generationSettings: { temperature: 9 } })).toThrow(
      expect.objectContaining({ code: 'invalid_input' })
    )
  })

  it('reads an unknown stored permission mode as default, never wider', () => {
    const session = fx.sessions.create()
    fx.sqlite.db.prepare("UPDATE sessions SET permission_mode = 'yolo' WHERE id = ?").run(session.id)
    expect(fx.sessions.require(session.id).permissionMode).toBe('default')
  })

  it('lists pinned sessions first, then by last activity, in pages', () => {
    const a = fx.sessions.create({ title: 'a' })
    fx.sessions.create({ title: 'b' })
    const c = fx.sessions.create({ title: 'c' })
    fx.sessions.create({ title: 'd' })
    fx.sessions.messages.appendUserMessage(a.id, { text: 'bump a' }) // a is now the most recent
    fx.sessions.setPinned(c.id, true)
    const first = fx.sessions.list({ limit: 2 })
    expect(first.sessions.map((s) => s.title)).toEqual(['c', 'a'])
    const second = fx.sessions.list({ limit: 2, cursor: first.nextCursor! })
    expect(second.sessions.map((s) => s.title)).toEqual(['d', 'b'])
    expect(second.nextCursor).toBeNull()
    expect(() => fx.sessions.list({ cursor: 'garbage' })).toThrow(
      expect.objectContaining({ code: 'invalid_input' })
    )
  })

  it('renames, pins and reports status changes with increasing versions', () => {
    const s = fx.sessions.create()
    expect(fx.sessions.rename(s.id, ' Trip ').title).toBe('Trip')
    expect(() => fx.sessions.rename(s.id, '  ')).toThrow(expect.objectContaining({ code: 'invalid_input' }))
    expect(() => fx.sessions.rename('nope', 'x')).toThrow(
      expect.objectContaining({ code: 'session_not_found' })
    )
    fx.sessions.setStatus(s.id, 'generating')
    fx.sessions.setStatus(s.id, 'idle')
    const statuses = fx.sink.named('sessions.status.changed') as { status: string; version: number }[]
    expect(statuses.map((x) => x.status)).toEqual(['generating', 'idle'])
    expect(statuses[1].version).toBeGreaterThan(statuses[0].version)
    expect(fx.sessions.require(s.id).status).toBe('idle')
  })

  it('creates subagent children on fork tapes with a mode never wider than the parent', () => {
    const parent = fx.sessions.create({ permissionMode: 'accept_edits', modelId: 'm1', workspaceDir: '/w' })
    const child = fx.sessions.createSubagent(parent.id, {
      meta: { slotId: 'self', displayName: 'Researcher' },
      permissionMode: 'full_access',
      forkId: 'task1'
    })
    expect(child).toMatchObject({
      kind: 'subagent',
      parentSessionId: parent.id,
      tapeId: `${parent.id}::fork::task1`,
      permissionMode: 'accept_edits',
      modelId: 'm1',
      workspaceDir: '/w',
      title: 'Researcher',
      subagentMeta: { slotId: 'self', displayName: 'Researcher', forkId: 'task1' }
    })
    expect(fx.tape.entries(child.tapeId)[0].name).toBe('fork/start')
    const narrower = fx.sessions.createSubagent(parent.id, {
      meta: { slotId: 's', displayName: 'N' },
      permissionMode: 'default'
    })
    expect(narrower.permissionMode).toBe('default')
    expect(fx.sessions.list().sessions.map((s) => s.id)).toEqual([parent.id]) // children are not in the list
    expect(fx.sessions.children(parent.id).map((s) => s.id)).toEqual([child.id, narrower.id])
    expect(() => fx.sessions.createSubagent(child.id, { meta: { slotId: 's', displayName: 'x' } })).toThrow(
      /Subagents cannot/
    )
  })

  it('purges a session with its subagent children, their fork tapes, messages and interactions', () => {
    const parent = fx.sessions.create()
    const other = fx.sessions.create()
    fx.sessions.messages.appendUserMessage(parent.id, { text: 'go' })
    const child = fx.sessions.createSubagent(parent.id, { meta: { slotId: 's', displayName: 'kid' } })
    const msg = fx.sessions.messages.createAssistantMessage(child.id)
    fx.sessions.interactions.pause(msg.id, { interactions: [{ kind: 'question', request: { text: 'ok?' } }] })
    const removed = fx.sessions.purge(parent.id)
    expect(removed).toEqual([child.id, parent.id])
    const count = (sql: string) => (fx.sqlite.db.prepare(sql).get() as { n: number }).n
    expect(count('SELECT count(*) AS n FROM sessions')).toBe(1)
    expect(count('SELECT count(*) AS n FROM messages')).toBe(0)
    expect(count('SELECT count(*) AS n FROM message_blocks')).toBe(0)
    expect(count('SELECT count(*) AS n FROM pending_interactions')).toBe(0)
    expect(count(`SELECT count(*) AS n FROM tapes WHERE id LIKE '${parent.id}%'`)).toBe(0)
    expect(count(`SELECT count(*) AS n FROM tape_entries WHERE tape_id LIKE '${parent.id}%'`)).toBe(0)
    expect(fx.tape.info(other.tapeId).entries).toBe(1)
    expect(fx.sink.named('sessions.list.updated').at(-1)).toEqual({
      sessionIds: [child.id, parent.id],
      reason: 'deleted'
    })
  })
})
