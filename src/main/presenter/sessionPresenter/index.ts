import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { AppError } from '@shared/errors'
import {
  sessionsInteractionsChanged,
  sessionsStatusChanged,
  sessionsUpdated
} from '@shared/contracts/events/sessions.events'
import {
  CreateSessionInput,
  PermissionMode,
  SubagentMeta,
  type InteractionStatus,
  type MessageBlockInput,
  type MessageRecord,
  type PendingInteraction,
  type SessionRecord,
  type SessionSearchHit,
  type SessionStatus
} from '@shared/types/session'
import { SESSION_START, type TapeSearchOptions } from '@shared/types/tape'
import { isWiderMode } from '@shared/types/permission'
import type { SqlitePresenter } from '../sqlitePresenter'
import type { TapePresenter } from '../tapePresenter'
import type { EventSink } from '../../bridge/events'
import { Hook } from '../hook'
import { MessageStore } from './messageStore'
import { ChatBranches } from './chatBranches'
import { InteractionStore, type InteractionRequest } from './interactions'
import { toSession, type SessionRow } from './rows'
import type { Workspaces } from './workspaces'
import { searchMessages } from './historySearch'
import { copyHistory } from './sessionFork'

export type { InteractionRequest } from './interactions'
export type { FinalStatus } from './messageStore'

export interface SessionPresenterDeps {
  sqlite: Pick<SqlitePresenter, 'db' | 'transaction'>
  tape: Pick<TapePresenter, 'append' | 'fork' | 'purge' | 'searchMany' | 'store'>
  events: EventSink
  /** Scratch folders for chats without a chosen folder. */
  workspaces: Pick<Workspaces, 'scratchDirOf' | 'isScratch' | 'ensure' | 'remove'>
  now?: () => number
  newId?: () => string
  log?: (message: string) => void
}

const DEFAULT_TITLE = 'New Chat'

/**
 * Sessions and what the UI reads about them: the session list, message projections, pending
 * interactions and status. Every fact goes through the tape in the same transaction.
 */
export class SessionPresenter {
  readonly messages: MessageStore
  readonly interactions: InteractionStore
  /** Variants, the chosen branch and deleted messages (chatBranches.ts). */
  readonly branches: ChatBranches
  private readonly now: () => number
  private readonly newId: () => string
  private statusVersion = 0
  private readonly statusChanged: Hook<{ sessionId: string; status: SessionStatus }>
  private readonly interactionsChanged: Hook<{ sessionId: string; messageId: string; pending: number }>
  private readonly purged: Hook<string[]>

  constructor(private readonly deps: SessionPresenterDeps) {
    this.now = deps.now ?? Date.now
    this.newId = deps.newId ?? (() => randomUUID())
    this.statusChanged = new Hook('sessions.onStatusChanged', deps.log)
    this.interactionsChanged = new Hook('sessions.onInteractionsChanged', deps.log)
    this.purged = new Hook('sessions.onPurged', deps.log)
    const shared = {
      db: deps.sqlite.db,
      transaction: <T>(fn: () => T) => deps.sqlite.transaction(() => fn()),
      tape: deps.tape,
      now: this.now,
      newId: this.newId,
      tapeOf: (sessionId: string) => this.require(sessionId).tapeId
    }
    this.messages = new MessageStore({ ...shared, touchSession: (id, at) => this.touch(id, at) })
    this.interactions = new InteractionStore({ ...shared, messages: this.messages })
    this.branches = new ChatBranches({ ...shared, messages: this.messages })
  }

  create(input: CreateSessionInput = {}): SessionRecord {
    const parsed = CreateSessionInput.safeParse(input)
    if (!parsed.success) throw new AppError('invalid_input', z.prettifyError(parsed.error))
    const id = this.newId()
    const workspaceDir =
      parsed.data.workspaceDir ?? this.deps.workspaces.ensure(this.deps.workspaces.scratchDirOf(id))
    const session = this.deps.sqlite.transaction(() => {
      this.insertSession({
        id,
        kind: 'regular',
        parentSessionId: null,
        tapeId: id,
        ...parsed.data,
        workspaceDir
      })
      this.deps.tape.store.createTape({ id, sessionId: id })
      this.deps.tape.append(id, {
        kind: 'anchor',
        name: SESSION_START,
        payload: { name: SESSION_START, state: { owner: 'human' } },
        provenanceKey: 'session:start'
      })
      return this.require(id)
    })
    this.deps.events.emit(sessionsUpdated, { sessionIds: [id], reason: 'created' })
    return session
  }

  /**
   * A child session for a subagent task. Its tape is a fork of the parent's, and its
   * permission mode is never wider than the parent's.
   */
  createSubagent(
    parentSessionId: string,
    input: { meta: SubagentMeta; title?: string; permissionMode?: PermissionMode; forkId?: string }
  ): SessionRecord {
    const meta = SubagentMeta.safeParse(input.meta)
    if (!meta.success) throw new AppError('invalid_input', z.prettifyError(meta.error))
    const id = this.newId()
    const session = this.deps.sqlite.transaction(() => {
      const parent = this.require(parentSessionId)
      if (parent.kind !== 'regular') throw new AppError('invalid_input', 'Subagents cannot start subagents')
      const requested = input.permissionMode ?? parent.permissionMode
      const permissionMode = isWiderMode(requested, parent.permissionMode) ? parent.permissionMode : requested
      const fork = this.deps.tape.fork(parent.tapeId, {
        forkId: input.forkId ?? meta.data.forkId,
        sessionId: id
      })
      this.insertSession({
        id,
        kind: 'subagent',
        parentSessionId,
        tapeId: fork.tapeId,
        title: input.title ?? meta.data.displayName,
        workspaceDir: parent.workspaceDir,
        providerId: parent.providerId,
        modelId: parent.modelId,
        permissionMode,
        generationSettings: parent.generationSettings,
        subagentMeta: { ...meta.data, forkId: fork.forkId }
      })
      return this.require(id)
    })
    this.deps.events.emit(sessionsUpdated, { sessionIds: [id], reason: 'created' })
    return session
  }

  get(sessionId: string): SessionRecord | undefined {
    const row = this.deps.sqlite.db.prepare('SELECT * FROM sessions WHERE id = ?').get(sessionId) as
      SessionRow | undefined
    return row ? toSession(row, this.deps.workspaces) : undefined
  }

  require(sessionId: string): SessionRecord {
    const session = this.get(sessionId)
    if (!session) throw new AppError('session_not_found', `No session ${sessionId}`)
    return session
  }

  /** Every folder a chat works in (each was picked by the user, or is a chat's scratch folder). */
  workspaceDirs(): string[] {
    return this.deps.sqlite.db
      .prepare('SELECT DISTINCT workspace_dir FROM sessions WHERE workspace_dir IS NOT NULL')
      .pluck()
      .all() as string[]
  }

  /** Regular sessions, pinned first, then by last activity. The cursor is opaque to callers. */
  list(options: { limit?: number; cursor?: string } = {}): {
    sessions: SessionRecord[]
    nextCursor: string | null
  } {
    const limit = Math.min(Math.max(options.limit ?? 50, 1), 200)
    const after = options.cursor ? decodeCursor(options.cursor) : null
    const rows = this.deps.sqlite.db
      .prepare(
        `SELECT * FROM sessions WHERE kind = 'regular' AND (
           @none OR pinned < @pinned OR (pinned = @pinned AND (last_activity_at < @at OR (last_activity_at = @at AND id > @id))))
         ORDER BY pinned DESC, last_activity_at DESC, id LIMIT @limit`
      )
      .all({
        none: after ? 0 : 1,
        pinned: after?.pinned ?? 0,
        at: after?.at ?? 0,
        id: after?.id ?? '',
        limit: limit + 1
      }) as SessionRow[]
    const page = rows.slice(0, limit).map((row) => toSession(row, this.deps.workspaces))
    const last = page[page.length - 1]
    return { sessions: page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null }
  }

  children(sessionId: string): SessionRecord[] {
    return (
      this.deps.sqlite.db
        .prepare('SELECT * FROM sessions WHERE parent_session_id = ? ORDER BY created_at, id')
        .all(sessionId) as SessionRow[]
    ).map((row) => toSession(row, this.deps.workspaces))
  }

  rename(sessionId: string, title: string): SessionRecord {
    const clean = title.trim()
    if (!clean || clean.length > 200) throw new AppError('invalid_input', 'A title is 1 to 200 characters')
    return this.updateColumns(sessionId, { title: clean })
  }

  setPinned(sessionId: string, pinned: boolean): SessionRecord {
    return this.updateColumns(sessionId, { pinned: pinned ? 1 : 0 })
  }

  /**
   * Changes a session's model, permission mode, workspace or generation settings; callers check
   * the values and emit `sessions.updated` once their whole change (with tool state) is written.
   */
  updateSettings(
    sessionId: string,
    fields: Partial<
      Pick<SessionRecord, 'providerId' | 'modelId' | 'permissionMode' | 'generationSettings'>
    > & {
      /** null: back to the chat's scratch folder. */
      workspaceDir?: string | null
    }
  ): SessionRecord {
    const columns: Record<string, string | number | null> = {}
    if (fields.providerId !== undefined) columns.provider_id = fields.providerId
    if (fields.modelId !== undefined) columns.model_id = fields.modelId
    if (fields.permissionMode !== undefined) columns.permission_mode = fields.permissionMode
    if (fields.workspaceDir !== undefined) {
      columns.workspace_dir =
        fields.workspaceDir ?? this.deps.workspaces.ensure(this.deps.workspaces.scratchDirOf(sessionId))
    }
    if (fields.generationSettings !== undefined)
      columns.generation_settings_json = JSON.stringify(fields.generationSettings)
    return this.updateColumns(sessionId, columns, { silent: true })
  }

  setStatus(sessionId: string, status: SessionStatus): SessionRecord {
    const session = this.updateColumns(sessionId, { status }, { silent: true })
    this.deps.events.emit(sessionsStatusChanged, { sessionId, status, version: ++this.statusVersion })
    this.statusChanged.fire({ sessionId, status })
    return session
  }

  /**
   * Pauses an assistant message on permission requests or questions: blocks, interaction rows,
   * message state and session status change in one transaction.
   */
  pauseMessage(
    messageId: string,
    input: { blocks?: readonly MessageBlockInput[]; interactions: readonly InteractionRequest[] }
  ): { message: MessageRecord; interactions: PendingInteraction[] } {
    const result = this.deps.sqlite.transaction(() => {
      const paused = this.interactions.pause(messageId, input)
      this.updateColumns(paused.message.sessionId, { status: 'awaiting_interaction' }, { silent: true })
      return paused
    })
    const { sessionId } = result.message
    this.deps.events.emit(sessionsStatusChanged, {
      sessionId,
      status: 'awaiting_interaction',
      version: ++this.statusVersion
    })
    this.deps.events.emit(sessionsInteractionsChanged, {
      sessionId,
      messageId,
      pendingCount: result.interactions.length
    })
    this.statusChanged.fire({ sessionId, status: 'awaiting_interaction' })
    this.interactionsChanged.fire({ sessionId, messageId, pending: result.interactions.length })
    return result
  }

  /** Records one answer; `remaining === 0` means the message can resume. */
  resolveInteraction(
    interactionId: string,
    status: InteractionStatus,
    response: Record<string, unknown> = {}
  ): { interaction: PendingInteraction; remaining: number } {
    const result = this.interactions.resolve(interactionId, status, response)
    const { sessionId, messageId } = result.interaction
    this.deps.events.emit(sessionsInteractionsChanged, {
      sessionId,
      messageId,
      pendingCount: result.remaining
    })
    this.interactionsChanged.fire({ sessionId, messageId, pending: result.remaining })
    return result
  }

  /**
   * Deletes a session for good: its subagent children (and theirs), every tape they own
   * including forks, messages, blocks and interactions. The only way tape rows are removed.
   */
  purge(sessionId: string): string[] {
    const removed = this.deps.sqlite.transaction(() => {
      this.require(sessionId)
      const order: SessionRecord[] = []
      const visit = (id: string) => {
        for (const child of this.children(id)) visit(child.id)
        order.push(this.require(id))
      }
      visit(sessionId)
      this.deps.tape.purge(order.map((s) => s.tapeId))
      const remove = this.deps.sqlite.db.prepare('DELETE FROM sessions WHERE id = ?')
      for (const session of order) remove.run(session.id) // children first: the parent key needs it
      return order
    })
    this.removeUnusedScratch(removed)
    const ids = removed.map((s) => s.id)
    this.purged.fire(ids)
    this.deps.events.emit(sessionsUpdated, { sessionIds: ids, reason: 'deleted' })
    return ids
  }

  /** A deleted chat's scratch folder goes with it, unless a fork still works there. */
  private removeUnusedScratch(removed: SessionRecord[]): void {
    const stillUsed = this.deps.sqlite.db.prepare('SELECT 1 FROM sessions WHERE workspace_dir = ? LIMIT 1')
    for (const dir of new Set(removed.filter((s) => s.workspaceIsScratch).map((s) => s.workspaceDir))) {
      if (!stillUsed.get(dir)) this.deps.workspaces.remove(dir)
    }
  }

  /**
   * Lets the composition root tie per-session state elsewhere (runs, grants, processes) to a
   * session's lifetime. Called after the purge committed, children included.
   */
  onPurged(listener: (sessionIds: string[]) => void): () => void {
    return this.purged.on(listener)
  }

  /** A session's status was written (generating, awaiting_interaction, idle, error). */
  onStatusChanged(listener: (change: { sessionId: string; status: SessionStatus }) => void): () => void {
    return this.statusChanged.on(listener)
  }

  /** A message's open interactions changed: paused with new ones, or one was answered. */
  onInteractionsChanged(
    listener: (change: { sessionId: string; messageId: string; pending: number }) => void
  ): () => void {
    return this.interactionsChanged.on(listener)
  }

  /** A new regular session holding the history up to (and including) the given message. */
  forkFromMessage(sessionId: string, messageId: string, options: { title?: string } = {}): SessionRecord {
    const source = this.require(sessionId)
    const created = this.create({
      title: options.title ?? `${source.title} (fork)`,
      workspaceDir: source.workspaceDir,
      providerId: source.providerId,
      modelId: source.modelId,
      permissionMode: source.permissionMode,
      generationSettings: source.generationSettings
    })
    try {
      this.deps.sqlite.transaction(() =>
        copyHistory(
          { db: this.deps.sqlite.db, tape: this.deps.tape, messages: this.messages, newId: this.newId },
          source,
          created,
          messageId
        )
      )
    } catch (error) {
      this.purge(created.id) // never leave a half-made fork behind
      throw error
    }
    return this.require(created.id)
  }

  /** Full-text search over every regular session's messages: one hit per message, best first. */
  searchHistory(query: string, options: TapeSearchOptions = {}): SessionSearchHit[] {
    return searchMessages({ db: this.deps.sqlite.db, tape: this.deps.tape }, query, options)
  }

  private insertSession(
    s: CreateSessionInput & {
      id: string
      kind: 'regular' | 'subagent'
      parentSessionId: string | null
      tapeId: string
      subagentMeta?: SubagentMeta
    }
  ): void {
    const now = this.now()
    this.deps.sqlite.db
      .prepare(
        `INSERT INTO sessions (id, kind, parent_session_id, tape_id, title, workspace_dir, provider_id, model_id,
          permission_mode, generation_settings_json, subagent_meta_json, created_at, updated_at, last_activity_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
      )
      .run(
        s.id,
        s.kind,
        s.parentSessionId,
        s.tapeId,
        s.title?.trim() || DEFAULT_TITLE,
        s.workspaceDir ?? null,
        s.providerId ?? null,
        s.modelId ?? null,
        s.permissionMode ?? 'default',
        JSON.stringify(s.generationSettings ?? {}),
        s.subagentMeta ? JSON.stringify(s.subagentMeta) : null,
        now,
        now,
        now
      )
  }

  private updateColumns(
    sessionId: string,
    columns: Record<string, string | number | null>,
    options: { silent?: boolean } = {}
  ): SessionRecord {
    const names = Object.keys(columns)
    const result = this.deps.sqlite.db
      .prepare(
        `UPDATE sessions SET ${names.map((n) => `${n} = @${n}, `).join('')}updated_at = @now WHERE id = @id`
      )
      .run({ ...columns, now: this.now(), id: sessionId })
    if (result.changes === 0) throw new AppError('session_not_found', `No session ${sessionId}`)
    if (!options.silent)
      this.deps.events.emit(sessionsUpdated, { sessionIds: [sessionId], reason: 'updated' })
    return this.require(sessionId)
  }

  private touch(sessionId: string, at: number): void {
    this.deps.sqlite.db
      .prepare('UPDATE sessions SET last_activity_at = max(last_activity_at, ?), updated_at = ? WHERE id = ?')
      .run(at, at, sessionId)
  }
}

function encodeCursor(session: SessionRecord): string {
  return Buffer.from(JSON.stringify([session.pinned ? 1 : 0, session.lastActivityAt, session.id])).toString(
    'base64url'
  )
}

function decodeCursor(cursor: string): { pinned: number; at: number; id: string } {
  try {
    const [pinned, at, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [
      number,
      number,
      string
    ]
    if (typeof pinned !== 'number' || typeof at !== 'number' || typeof id !== 'string')
      throw new Error('shape')
    return { pinned, at, id }
  } catch {
    throw new AppError('invalid_input', 'The list cursor is not valid')
  }
}
