import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { AppError } from '@shared/errors'
import type { SqlitePresenter } from '../sqlitePresenter'
import type { ConfigPresenter } from '../configPresenter'
import type { MemoryKind, MemoryRecord } from '../toolPresenter/runtimePorts'

export const MEMORY_CATEGORIES = [
  'user_preference',
  'project_fact',
  'task_outcome',
  'heuristic',
  'anti_pattern'
] as const

export const RememberInput = z.strictObject({
  content: z.string().trim().min(1).max(4000),
  kind: z.enum(['semantic', 'episodic']).default('semantic'),
  category: z.enum(MEMORY_CATEGORIES).optional(),
  importance: z.number().min(0).max(1).default(0.7)
})
export type RememberInput = z.input<typeof RememberInput>

export const MemorySettings = z.object({
  enabled: z.boolean().default(true),
  /** Agents whose memory is off even while memory is on. */
  disabledAgents: z.array(z.string().min(1).max(200)).max(200).default([])
})
export type MemorySettings = z.infer<typeof MemorySettings>

const SETTINGS_KEY = 'memory'
const STOP_WORDS = new Set(
  'a an and are as at be by did do does for from has have how i in is it its me my of on or that the this to was we what when where which who why will with you your'.split(
    ' '
  )
)
const MAX_RECALL = 50

export interface MemoryPresenterDeps {
  sqlite: Pick<SqlitePresenter, 'db' | 'transaction'>
  config: Pick<ConfigPresenter, 'getDocument' | 'setDocument'>
  now?: () => number
  newId?: () => string
}

export type RememberOutcome =
  { action: 'created' | 'updated'; id: string } | { action: 'noop'; id: string; reason: string }

interface MemoryRow {
  id: string
  kind: MemoryKind
  category: string | null
  content: string
  importance: number
  created_at: number
  updated_at: number
}

/**
 * What an agent remembers across sessions. Rows and their full-text index change in one
 * transaction; recall ranks by bm25, then importance, then recency.
 */
export class MemoryPresenter {
  private readonly now: () => number
  private readonly newId: () => string

  constructor(private readonly deps: MemoryPresenterDeps) {
    this.now = deps.now ?? Date.now
    this.newId = deps.newId ?? (() => `mem_${randomUUID().replaceAll('-', '').slice(0, 16)}`)
  }

  settings(): MemorySettings {
    return this.deps.config.getDocument(SETTINGS_KEY, MemorySettings, MemorySettings.parse({}))
  }

  isEnabled(agentId: string): boolean {
    const settings = this.settings()
    return settings.enabled && !settings.disabledAgents.includes(agentId)
  }

  /** Switches memory on or off for everyone, or for one agent. */
  setEnabled(enabled: boolean, agentId?: string): MemorySettings {
    const current = this.settings()
    const next: MemorySettings = agentId
      ? {
          ...current,
          disabledAgents: enabled
            ? current.disabledAgents.filter((a) => a !== agentId)
            : [...new Set([...current.disabledAgents, agentId])]
        }
      : { ...current, enabled }
    return this.deps.config.setDocument(SETTINGS_KEY, MemorySettings, next)
  }

  /** Same content (ignoring case and spacing) is never stored twice: it is a no-op or a re-rating. */
  remember(agentId: string, input: RememberInput, sourceSessionId: string | null = null): RememberOutcome {
    const parsed = RememberInput.safeParse(input)
    if (!parsed.success) throw new AppError('invalid_input', z.prettifyError(parsed.error))
    const { content, kind, category, importance } = parsed.data
    const key = contentKey(content)
    const db = this.deps.sqlite.db
    return this.deps.sqlite.transaction(() => {
      const existing = db
        .prepare('SELECT id, importance FROM agent_memories WHERE agent_id = ? AND content_key = ?')
        .get(agentId, key) as { id: string; importance: number } | undefined
      const at = this.now()
      if (existing) {
        if (importance <= existing.importance)
          return { action: 'noop', id: existing.id, reason: 'Already remembered.' }
        db.prepare('UPDATE agent_memories SET importance = ?, updated_at = ? WHERE id = ?').run(
          importance,
          at,
          existing.id
        )
        return { action: 'updated', id: existing.id }
      }
      const id = this.newId()
      db.prepare(
        `INSERT INTO agent_memories (id, agent_id, kind, category, content, content_key, importance, source_session_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      ).run(id, agentId, kind, category ?? null, content, key, importance, sourceSessionId, at, at)
      db.prepare('INSERT INTO agent_memories_fts (content, memory_id, agent_id) VALUES (?, ?, ?)').run(
        content,
        id,
        agentId
      )
      return { action: 'created', id }
    })
  }

  /** Memories sharing any word with the query, best match first. */
  recall(agentId: string, query: string, limit = 10): MemoryRecord[] {
    const words = [...query.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)].map((m) => m[0])
    if (words.length === 0) throw new AppError('invalid_input', 'The query needs at least one word or number')
    // Any shared word matches, so filler words would match nearly everything.
    const meaningful = words.filter((w) => !STOP_WORDS.has(w))
    const tokens = [...new Set(meaningful.length ? meaningful : words)].slice(0, 32)
    const match = tokens.map((t) => `"${t}"`).join(' OR ')
    const rows = this.deps.sqlite.db
      .prepare(
        `SELECT m.id, m.kind, m.category, m.content, m.importance, m.created_at, m.updated_at
         FROM agent_memories_fts f JOIN agent_memories m ON m.id = f.memory_id
         WHERE agent_memories_fts MATCH ? AND f.agent_id = ?
         ORDER BY bm25(agent_memories_fts) - m.importance ASC, m.updated_at DESC
         LIMIT ?`
      )
      .all(match, agentId, Math.min(Math.max(limit, 1), MAX_RECALL)) as MemoryRow[]
    return rows.map(toRecord)
  }

  list(agentId: string, limit = 100): MemoryRecord[] {
    const rows = this.deps.sqlite.db
      .prepare(
        'SELECT id, kind, category, content, importance, created_at, updated_at FROM agent_memories WHERE agent_id = ? ORDER BY updated_at DESC LIMIT ?'
      )
      .all(agentId, Math.min(Math.max(limit, 1), 1000)) as MemoryRow[]
    return rows.map(toRecord)
  }

  /** The user rewrote a memory (the Memory page): its text and search index change together. */
  update(agentId: string, memoryId: string, content: string): MemoryRecord {
    const text = RememberInput.shape.content.safeParse(content)
    if (!text.success) throw new AppError('invalid_input', 'A memory needs 1 to 4000 characters of text')
    const db = this.deps.sqlite.db
    return this.deps.sqlite.transaction(() => {
      const key = contentKey(text.data)
      const twin = db
        .prepare('SELECT id FROM agent_memories WHERE agent_id = ? AND content_key = ? AND id != ?')
        .get(agentId, key, memoryId)
      if (twin) throw new AppError('conflict', 'Another memory already says exactly this')
      const changed = db
        .prepare(
          'UPDATE agent_memories SET content = ?, content_key = ?, updated_at = ? WHERE id = ? AND agent_id = ?'
        )
        .run(text.data, key, this.now(), memoryId, agentId).changes
      if (changed === 0) throw new AppError('not_found', `No memory ${memoryId}`)
      db.prepare('DELETE FROM agent_memories_fts WHERE memory_id = ?').run(memoryId)
      db.prepare('INSERT INTO agent_memories_fts (content, memory_id, agent_id) VALUES (?, ?, ?)').run(
        text.data,
        memoryId,
        agentId
      )
      const row = db
        .prepare(
          'SELECT id, kind, category, content, importance, created_at, updated_at FROM agent_memories WHERE id = ?'
        )
        .get(memoryId) as MemoryRow
      return toRecord(row)
    })
  }

  /** False when the agent has no such memory (another agent's id is never touched). */
  forget(agentId: string, memoryId: string): boolean {
    return this.deps.sqlite.transaction(() => {
      const removed =
        this.deps.sqlite.db
          .prepare('DELETE FROM agent_memories WHERE id = ? AND agent_id = ?')
          .run(memoryId, agentId).changes > 0
      if (removed)
        this.deps.sqlite.db.prepare('DELETE FROM agent_memories_fts WHERE memory_id = ?').run(memoryId)
      return removed
    })
  }
}

function contentKey(content: string): string {
  return content.toLowerCase().replace(/\s+/g, ' ').trim()
}

function toRecord(row: MemoryRow): MemoryRecord {
  return {
    id: row.id,
    kind: row.kind,
    category: row.category,
    content: row.content,
    importance: row.importance,
    createdAt: row.created_at,
    updatedAt: row.updated_at
  }
}
