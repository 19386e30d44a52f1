import type { QueuedInput } from '@shared/types/chat'
import type { Db } from '../sqlitePresenter'

interface QueuedRow {
  id: string
  text: string
  created_at: number
}

/** Steering input per session, oldest first, kept in SQLite until a turn takes it. */
export class SteeringQueue {
  private readonly listStatement
  private readonly insertStatement
  private readonly removeStatement
  private readonly clearStatement
  private readonly hasStatement

  constructor(db: Db) {
    this.listStatement = db.prepare(
      'SELECT id, text, created_at FROM queued_inputs WHERE session_id = ? ORDER BY created_at, rowid'
    )
    this.insertStatement = db.prepare(
      'INSERT INTO queued_inputs (id, session_id, text, created_at) VALUES (?, ?, ?, ?)'
    )
    this.removeStatement = db.prepare('DELETE FROM queued_inputs WHERE session_id = ? AND id = ?')
    this.clearStatement = db.prepare('DELETE FROM queued_inputs WHERE session_id = ?')
    this.hasStatement = db.prepare('SELECT 1 FROM queued_inputs WHERE session_id = ? LIMIT 1')
  }

  list(sessionId: string): QueuedInput[] {
    return (this.listStatement.all(sessionId) as QueuedRow[]).map((r) => ({
      id: r.id,
      text: r.text,
      createdAt: r.created_at
    }))
  }

  add(sessionId: string, input: QueuedInput): void {
    this.insertStatement.run(input.id, sessionId, input.text, input.createdAt)
  }

  remove(sessionId: string, inputId: string): boolean {
    return this.removeStatement.run(sessionId, inputId).changes > 0
  }

  /** Empties the session's queue; true when something was in it. */
  clear(sessionId: string): boolean {
    return this.clearStatement.run(sessionId).changes > 0
  }

  has(sessionId: string): boolean {
    return this.hasStatement.get(sessionId) !== undefined
  }
}
