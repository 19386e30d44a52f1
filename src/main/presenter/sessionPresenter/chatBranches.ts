import type Database from 'better-sqlite3'
import { AppError } from '@shared/errors'
import type { MessageRecord } from '@shared/types/session'
import type { MessageVariants } from '@shared/types/chat'
import type { TapeEntryInput } from '@shared/types/tape'
import type { MessageStore, TapeWriter } from './messageStore'
import {
  BRANCH_EVENT_NAMES,
  DELETE_EVENT,
  RESTORE_EVENT,
  VARIANT_EVENT,
  loadBranchTree,
  type BranchTree
} from './branches'

const TREES_KEPT = 8

export interface ChatBranchesDeps {
  db: Database.Database
  transaction: <T>(fn: () => T) => T
  tape: TapeWriter
  messages: Pick<MessageStore, 'many' | 'get' | 'list'>
  /** A session's tape id (and a check that it exists). */
  tapeOf: (sessionId: string) => string
}

/**
 * The chosen branch of a chat and the user's changes to it: which variant shows, which
 * messages are deleted. Every change is one appended tape event; nothing is rewritten.
 */
export class ChatBranches {
  /**
   * Trees of recently read chats, by session, with what they were built from: paging through a
   * long chat (loading older pages, find in chat) builds its tree once, not once per page.
   */
  private readonly trees = new Map<string, { key: string; tree: BranchTree }>()

  constructor(private readonly deps: ChatBranchesDeps) {}

  tree(sessionId: string): BranchTree {
    const tapeId = this.deps.tapeOf(sessionId)
    // Messages are only ever added (orderSeq grows) and events only appended, so the count,
    // the newest orderSeq and the newest branch event name the tree's state.
    const { n, m } = this.deps.db
      .prepare('SELECT count(*) AS n, coalesce(max(order_seq), 0) AS m FROM messages WHERE session_id = ?')
      .get(sessionId) as { n: number; m: number }
    const key = `${n}:${m}:${this.lastEventId(tapeId) ?? 0}`
    const cached = this.trees.get(sessionId)
    if (cached?.key === key) return cached.tree
    const tree = loadBranchTree(this.deps.db, sessionId, tapeId)
    this.trees.delete(sessionId)
    this.trees.set(sessionId, { key, tree })
    if (this.trees.size > TREES_KEPT) this.trees.delete(this.trees.keys().next().value!)
    return tree
  }

  /**
   * Whether the chat has any branch event. Most chats have none: they are one straight line,
   * read by `orderSeq` alone without building the tree (a 10,000-message chat's page stays cheap).
   */
  isBranched(sessionId: string): boolean {
    return this.lastEventId(this.deps.tapeOf(sessionId)) !== null
  }

  private lastEventId(tapeId: string): number | null {
    const row = this.deps.db
      .prepare(
        `SELECT max(entry_id) AS id FROM tape_entries WHERE tape_id = ? AND kind = 'event'
          AND name IN (${BRANCH_EVENT_NAMES.map(() => '?').join(',')})`
      )
      .get(tapeId, ...BRANCH_EVENT_NAMES) as { id: number | null }
    return row.id
  }

  /** The message a new prompt continues: the end of the chosen branch (null in an empty chat). */
  tail(sessionId: string): string | null {
    if (this.isBranched(sessionId)) return this.tree(sessionId).tail()?.id ?? null
    const last = this.deps.db
      .prepare('SELECT id FROM messages WHERE session_id = ? ORDER BY order_seq DESC LIMIT 1')
      .get(sessionId) as { id: string } | undefined
    return last?.id ?? null
  }

  /** Every message of the chosen branch, oldest first: what exports and find read. */
  visible(sessionId: string): MessageRecord[] {
    return this.deps.messages.many(
      this.tree(sessionId)
        .path()
        .map((n) => n.id)
    )
  }

  /** A page of the chosen branch, newest page first (`beforeOrderSeq` pages backwards). */
  page(
    sessionId: string,
    options: { beforeOrderSeq?: number; limit?: number } = {}
  ): { messages: MessageRecord[]; hasMore: boolean; tree: BranchTree | null } {
    const limit = Math.min(Math.max(options.limit ?? 50, 1), 200)
    if (!this.isBranched(sessionId))
      return { ...this.deps.messages.list(sessionId, { ...options, limit }), tree: null }
    const tree = this.tree(sessionId)
    const before = options.beforeOrderSeq ?? Number.MAX_SAFE_INTEGER
    const older = tree.path().filter((n) => n.orderSeq < before)
    const page = older.slice(-limit)
    return {
      messages: this.deps.messages.many(page.map((n) => n.id)),
      hasMore: older.length > page.length,
      tree
    }
  }

  /** The variant strip of a message, or null when it has none (a straight chat: `tree` null). */
  static variantsIn(tree: BranchTree | null, messageId: string): MessageVariants | null {
    const info = tree?.variants(messageId)
    return info && info.count > 1 ? info : null
  }

  /** The variant strip of one message. */
  variantsOf(sessionId: string, messageId: string): MessageVariants | null {
    return ChatBranches.variantsIn(this.isBranched(sessionId) ? this.tree(sessionId) : null, messageId)
  }

  /** Shows `messageId` (and, above it, the variants leading to it). Returns whether anything changed. */
  select(sessionId: string, messageId: string): boolean {
    return this.deps.transaction(() => {
      const tree = this.tree(sessionId)
      this.requireIn(tree, sessionId, messageId)
      if (tree.isDeleted(messageId)) throw new AppError('invalid_input', 'That message was deleted')
      const onPath = new Set(tree.path().map((n) => n.id))
      const chain = [...tree.ancestors(messageId).map((n) => n.id), messageId]
      const entries: TapeEntryInput[] = []
      for (const id of chain) {
        if (onPath.has(id)) continue
        const parentId = tree.parentOf(id)
        entries.push(event(VARIANT_EVENT, { parentId, messageId: id }))
      }
      if (entries.length) this.deps.tape.append(this.deps.tapeOf(sessionId), entries)
      return entries.length > 0
    })
  }

  /**
   * Hides a message: a prompt goes with its answers (every variant), an answer alone.
   * Returns the ids hidden, which `restore` takes back.
   */
  remove(sessionId: string, messageId: string): string[] {
    return this.deps.transaction(() => {
      const tree = this.tree(sessionId)
      const node = this.requireIn(tree, sessionId, messageId)
      if (tree.isDeleted(messageId)) return []
      const ids = [messageId]
      if (node.role === 'user')
        for (const child of tree.childrenOf(messageId))
          if (child.role === 'assistant' && !tree.isDeleted(child.id)) ids.push(child.id)
      this.deps.tape.append(this.deps.tapeOf(sessionId), event(DELETE_EVENT, { messageIds: ids }))
      return ids
    })
  }

  /** Undoes a delete: the messages show again where they were. */
  restore(sessionId: string, messageIds: readonly string[]): string[] {
    return this.deps.transaction(() => {
      const tree = this.tree(sessionId)
      for (const id of messageIds) this.requireIn(tree, sessionId, id)
      const ids = messageIds.filter((id) => tree.isDeleted(id))
      if (ids.length)
        this.deps.tape.append(this.deps.tapeOf(sessionId), event(RESTORE_EVENT, { messageIds: ids }))
      return ids
    })
  }

  private requireIn(tree: BranchTree, sessionId: string, messageId: string) {
    const node = tree.node(messageId)
    if (!node) {
      const known = this.deps.messages.get(messageId)
      throw known && known.sessionId === sessionId
        ? new AppError('invalid_input', 'That message was replaced by an earlier build and cannot be shown')
        : new AppError('message_not_found', `No message ${messageId} in this chat`)
    }
    return node
  }
}

function event(name: string, data: Record<string, string | string[] | null>): TapeEntryInput {
  return { kind: 'event', name, payload: { name, data } }
}
