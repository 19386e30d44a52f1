import type Database from 'better-sqlite3'
import { z } from 'zod'
import { AttachmentInput, type AttachmentView } from '@shared/types/attachments'
import type { ComposerDraft } from '@shared/contracts/routes/drafts.routes'
import type { AttachmentStore } from '../attachmentPresenter'

export interface DraftStoreDeps {
  db: Database.Database
  /** Throws `session_not_found` for a chat that does not exist. */
  requireSession: (sessionId: string) => unknown
  attachments: Pick<AttachmentStore, 'has' | 'meta'>
  now?: () => number
}

interface DraftRow {
  text: string
  attachments_json: string
  assistant_id: string | null
}

const NEW_CHAT_SCOPE = 'new'
const StoredAttachments = z.array(AttachmentInput)

/**
 * What is being written in each chat's composer and on the new-chat page. A chat's row goes
 * with the chat (foreign key); attachments are kept as the content hashes the store already has.
 */
export class DraftStore {
  private readonly now: () => number

  constructor(private readonly deps: DraftStoreDeps) {
    this.now = deps.now ?? Date.now
  }

  get(sessionId: string | null): ComposerDraft | null {
    const row = this.deps.db
      .prepare('SELECT text, attachments_json, assistant_id FROM composer_drafts WHERE scope = ?')
      .get(scopeOf(sessionId)) as DraftRow | undefined
    // An emptied draft stays as a row (it dates the emptying) and reads as none.
    if (!row || (!row.text && row.attachments_json === '[]' && !row.assistant_id)) return null
    return { text: row.text, attachments: this.views(row.attachments_json), assistantId: row.assistant_id }
  }

  save(
    sessionId: string | null,
    draft: { text: string; attachments: AttachmentInput[]; assistantId?: string | null; typedAt?: number }
  ): boolean {
    if (sessionId !== null) this.deps.requireSession(sessionId)
    const scope = scopeOf(sessionId)
    // A file the store does not have could never be sent: it is not kept either.
    const attachments = draft.attachments.filter((a) => this.deps.attachments.has(a.sha256))
    const assistantId = sessionId === null ? (draft.assistantId ?? null) : null
    const at = draft.typedAt ?? this.now()
    // Newer wins: a save that arrives after a later one (another page of the chat) is dropped.
    const result = this.deps.db
      .prepare(
        `INSERT INTO composer_drafts (scope, session_id, text, attachments_json, assistant_id, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(scope) DO UPDATE SET text = excluded.text, attachments_json = excluded.attachments_json,
           assistant_id = excluded.assistant_id, updated_at = excluded.updated_at
         WHERE excluded.updated_at >= composer_drafts.updated_at`
      )
      .run(scope, sessionId, draft.text, JSON.stringify(attachments), assistantId, at)
    return result.changes > 0 && Boolean(draft.text || attachments.length > 0 || assistantId)
  }

  private views(json: string): AttachmentView[] {
    let stored: AttachmentInput[]
    try {
      stored = StoredAttachments.parse(JSON.parse(json))
    } catch {
      return [] // an unreadable list loses the chips, never the text
    }
    return stored.flatMap(({ sha256, name }) => {
      if (!this.deps.attachments.has(sha256)) return []
      try {
        return [{ sha256, name, ...this.deps.attachments.meta(sha256) }]
      } catch {
        return []
      }
    })
  }
}

function scopeOf(sessionId: string | null): string {
  return sessionId === null ? NEW_CHAT_SCOPE : `chat:${sessionId}`
}
