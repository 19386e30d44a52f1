import type Database from 'better-sqlite3'
import type { MessageRecord, SessionRecord } from '@shared/types/session'
import type { SessionPresenter } from '../sessionPresenter'
import type { TapePresenter } from '../tapePresenter'
import { SUPERSEDED_EVENT } from './tapeHistory'

/**
 * Which messages of a session still count. Retry and edit never delete: they append a
 * `chat/superseded` event naming the messages that leave the context and the list.
 */
export class MessageHistory {
  constructor(
    private readonly deps: {
      db: Database.Database
      messages: SessionPresenter['messages']
      tape: Pick<TapePresenter, 'appendEvent'>
    }
  ) {}

  supersede(session: SessionRecord, messageIds: string[], reason: 'retry' | 'edit'): void {
    if (messageIds.length)
      this.deps.tape.appendEvent(session.tapeId, SUPERSEDED_EVENT, { messageIds, reason })
  }

  supersededIds(session: SessionRecord): Set<string> {
    const rows = this.deps.db
      .prepare("SELECT payload_json FROM tape_entries WHERE tape_id = ? AND kind = 'event' AND name = ?")
      .all(session.tapeId, SUPERSEDED_EVENT) as { payload_json: string }[]
    const ids = new Set<string>()
    for (const row of rows) {
      try {
        const data = (JSON.parse(row.payload_json) as { data?: { messageIds?: unknown } }).data
        if (Array.isArray(data?.messageIds))
          for (const id of data.messageIds) if (typeof id === 'string') ids.add(id)
      } catch {
        // a malformed payload hides nothing
      }
    }
    return ids
  }

  /** Every message of the session that still counts, oldest first. */
  current(session: SessionRecord): MessageRecord[] {
    const superseded = this.supersededIds(session)
    const out: MessageRecord[] = []
    let before: number | undefined
    for (;;) {
      const page = this.deps.messages.list(session.id, { beforeOrderSeq: before, limit: 200 })
      out.unshift(...page.messages.filter((m) => !superseded.has(m.id)))
      if (!page.hasMore || page.messages.length === 0) return out
      before = page.messages[0].orderSeq
    }
  }

  /** The user message an assistant message answers. */
  userMessageBefore(session: SessionRecord, orderSeq: number): MessageRecord | null {
    return (
      [...this.current(session)].reverse().find((m) => m.role === 'user' && m.orderSeq < orderSeq) ?? null
    )
  }
}
