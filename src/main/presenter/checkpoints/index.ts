import { z } from 'zod'
import { CHECKPOINT_TOOLS } from '@shared/builtinTools'
import { AppError } from '@shared/errors'
import type {
  RevertResult,
  TurnCheckpoint,
  TurnFileChange,
  TurnFileDiff,
  WritePreviewFile
} from '@shared/types/checkpoints'
import type { MessageRecord, SessionRecord } from '@shared/types/session'
import type { SqlitePresenter } from '../sqlitePresenter'
import type { TapePresenter } from '../tapePresenter'
import { putBack } from './putBack'
import { revertFacts, turnFileDiff, type ContentFact } from './turnDiff'
import { previewPendingWrite, type WritePreviewDeps } from './writePreview'

export const FILE_SNAPSHOT = 'file/snapshot'
export const FILE_REVERT = 'file/revert'

const Snapshot = z.object({
  toolCallId: z.string(),
  tool: z.enum(CHECKPOINT_TOOLS),
  path: z.string(),
  previousContent: z.string().nullable(),
  notKept: z.enum(['too_large', 'binary']).optional()
})

export interface CheckpointPresenterDeps {
  sqlite: Pick<SqlitePresenter, 'db'>
  tape: Pick<TapePresenter, 'appendEvent' | 'entry'>
  sessions: { require(sessionId: string): SessionRecord }
  messages: {
    require(messageId: string): MessageRecord
    /** The session's messages from `orderSeq` on (inclusive), oldest first. */
    since(sessionId: string, orderSeq: number): MessageRecord[]
  }
  preview: WritePreviewDeps
}

interface EventRow {
  entry_id: number
  name: string
  payload_json: string
}

/**
 * A turn's file changes, rebuilt from the `file/snapshot` facts `write` and `edit` put on the
 * tape before touching a file. Reverting puts every file back as it was before the turn's
 * first change to it, and is itself a tape fact (with the content it replaced).
 */
export class CheckpointPresenter {
  constructor(private readonly deps: CheckpointPresenterDeps) {}

  listTurn(sessionId: string, messageId: string): TurnCheckpoint {
    const { snapshots, later, reverts } = this.load(sessionId, messageId)
    return {
      sessionId,
      messageId,
      files: summarize(snapshots, later),
      revertEntryIds: reverts.map((r) => r.entry_id)
    }
  }

  /** Each file the turn changed with its content before and after the turn, for its diff. */
  async turnDiffs(sessionId: string, messageId: string): Promise<TurnFileDiff[]> {
    const { session, snapshots } = this.load(sessionId, messageId)
    const own: ContentFact[] = snapshots.map((s) => ({ ...s, content: s.previousContent }))
    const all = this.snapshotRows(session.tapeId).flatMap(({ row, snapshot }): ContentFact[] => {
      if (snapshot) return [{ ...snapshot, entryId: row.entry_id, content: snapshot.previousContent }]
      if (row.name !== FILE_REVERT) return []
      return revertFacts(row.entry_id, (JSON.parse(row.payload_json) as { data?: unknown }).data)
    })
    const paths = [...new Set(snapshots.map((s) => s.path))]
    return Promise.all(paths.map((path) => turnFileDiff(session.workspaceDir, path, own, all)))
  }

  /** The current content of the files a pending write request would change (see writePreview.ts). */
  previewWrite(sessionId: string, interactionId: string): Promise<WritePreviewFile[]> {
    return previewPendingWrite(this.deps.preview, sessionId, interactionId)
  }

  async revertTurn(sessionId: string, messageId: string): Promise<RevertResult> {
    const { session, snapshots } = this.load(sessionId, messageId)
    if (session.status === 'generating')
      throw new AppError('session_busy', 'Stop the running turn before reverting its changes')
    const files = summarize(snapshots, [])
    if (files.length === 0) throw new AppError('nothing_to_revert', 'This turn changed no files')
    const first = files.map((f) => snapshots.find((s) => s.entryId === f.snapshotEntryId)!)
    const { files: results, replaced } = await putBack(session.workspaceDir, first)
    const entry = this.deps.tape.appendEvent(session.tapeId, FILE_REVERT, {
      messageId,
      files: results,
      replaced
    })
    return { sessionId, messageId, files: results, revertEntryId: entry.entryId }
  }

  /**
   * Puts every file changed from this (user) message on back as it was before it: for each
   * file, the content before the first change any later turn made. The messages stay; the
   * restore is a tape fact like a revert.
   */
  async restoreBefore(sessionId: string, messageId: string): Promise<RevertResult> {
    const session = this.deps.sessions.require(sessionId)
    const message = this.deps.messages.require(messageId)
    if (message.sessionId !== sessionId)
      throw new AppError('not_found', `Message ${messageId} is not in session ${sessionId}`)
    if (session.status === 'generating')
      throw new AppError('session_busy', 'Stop the running turn before restoring files')
    const callIds = new Set<string>()
    for (const later of this.deps.messages.since(sessionId, message.orderSeq))
      for (const block of later.blocks) if (block.kind === 'tool_call') callIds.add(block.toolCall.id)
    const firstByPath = new Map<string, Snapshot>()
    for (const { snapshot } of this.snapshotRows(session.tapeId))
      if (snapshot && callIds.has(snapshot.toolCallId) && !firstByPath.has(snapshot.path))
        firstByPath.set(snapshot.path, snapshot)
    if (firstByPath.size === 0)
      throw new AppError('nothing_to_revert', 'No file was changed after this message')
    const { files: results, replaced } = await putBack(session.workspaceDir, [...firstByPath.values()])
    const entry = this.deps.tape.appendEvent(session.tapeId, FILE_REVERT, {
      restoreBefore: messageId,
      files: results,
      replaced
    })
    return { sessionId, messageId, files: results, revertEntryId: entry.entryId }
  }

  private snapshotRows(tapeId: string): { row: EventRow; snapshot: Snapshot | null }[] {
    const rows = this.deps.sqlite.db
      .prepare(
        `SELECT entry_id, name, payload_json FROM tape_entries WHERE tape_id = ? AND kind = 'event' AND name IN (?, ?) ORDER BY entry_id`
      )
      .all(tapeId, FILE_SNAPSHOT, FILE_REVERT) as EventRow[]
    return rows.map((row) => {
      if (row.name !== FILE_SNAPSHOT) return { row, snapshot: null }
      const data = (JSON.parse(row.payload_json) as { data?: unknown }).data
      const parsed = Snapshot.safeParse(data)
      return { row, snapshot: parsed.success ? parsed.data : null }
    })
  }

  private load(sessionId: string, messageId: string) {
    const session = this.deps.sessions.require(sessionId)
    const message = this.deps.messages.require(messageId)
    if (message.sessionId !== sessionId)
      throw new AppError('not_found', `Message ${messageId} is not in session ${sessionId}`)
    const callIds = new Set(message.blocks.flatMap((b) => (b.kind === 'tool_call' ? [b.toolCall.id] : [])))
    const rows = this.deps.sqlite.db
      .prepare(
        `SELECT entry_id, name, payload_json FROM tape_entries WHERE tape_id = ? AND kind = 'event' AND name IN (?, ?) ORDER BY entry_id`
      )
      .all(session.tapeId, FILE_SNAPSHOT, FILE_REVERT) as EventRow[]
    const snapshots: (z.infer<typeof Snapshot> & { entryId: number })[] = []
    const reverts: EventRow[] = []
    /** Paths other turns changed after this one (a revert would also undo those changes). */
    const later: { path: string; entryId: number }[] = []
    for (const row of rows) {
      const data = (JSON.parse(row.payload_json) as { data?: Record<string, unknown> }).data ?? {}
      if (row.name === FILE_REVERT) {
        if (data.messageId === messageId) reverts.push(row)
        continue
      }
      const parsed = Snapshot.safeParse(data)
      if (!parsed.success) continue
      if (callIds.has(parsed.data.toolCallId)) snapshots.push({ ...parsed.data, entryId: row.entry_id })
      else later.push({ path: parsed.data.path, entryId: row.entry_id })
    }
    const lastOwn = snapshots.at(-1)?.entryId ?? Infinity
    return { session, snapshots, later: later.filter((l) => l.entryId > lastOwn), reverts }
  }
}

function summarize(
  snapshots: (z.infer<typeof Snapshot> & { entryId: number })[],
  later: { path: string }[]
): TurnFileChange[] {
  const byPath = new Map<string, TurnFileChange>()
  for (const s of snapshots) {
    const known = byPath.get(s.path)
    if (known) {
      known.edits += 1
      if (!known.tools.includes(s.tool)) known.tools.push(s.tool)
      continue
    }
    byPath.set(s.path, {
      path: s.path,
      existedBefore: s.previousContent !== null || Boolean(s.notKept),
      ...(s.notKept ? { notKept: s.notKept } : {}),
      edits: 1,
      tools: [s.tool],
      snapshotEntryId: s.entryId,
      changedLater: later.some((l) => l.path === s.path)
    })
  }
  return [...byPath.values()]
}

type Snapshot = z.infer<typeof Snapshot>

/** The session's messages from `orderSeq` on, read page by page from the newest (oldest first). */
export function messagesSince(
  store: {
    list(
      sessionId: string,
      options: { beforeOrderSeq?: number; limit?: number }
    ): { messages: MessageRecord[] }
  },
  sessionId: string,
  orderSeq: number
): MessageRecord[] {
  const found: MessageRecord[] = []
  let before: number | undefined
  for (;;) {
    const { messages } = store.list(sessionId, { beforeOrderSeq: before, limit: 200 })
    found.unshift(...messages.filter((m) => m.orderSeq >= orderSeq))
    if (messages.length === 0 || messages[0].orderSeq <= orderSeq) return found
    before = messages[0].orderSeq
  }
}
