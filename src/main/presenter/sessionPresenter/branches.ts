import type Database from 'better-sqlite3'
import type { TapeEntry } from '@shared/types/tape'
import { MessageFactFrame } from '@shared/types/messageFacts'

/**
 * A chat is a tree of messages. Retry and edit never delete: they add a sibling (a variant) of
 * the answer or prompt they replace; the user picks which variant shows; deleting hides
 * messages and undo shows them again. All of it is tape events, so the tape stays append-only
 * and the tree can be rebuilt from it alone (the model's context is).
 *
 * A message's parent is the message before it by `orderSeq` unless a `chat/branch` event names
 * another one (written only when they differ: retries, edits, and sends after switching to an
 * older variant), so chats from before branches read as one straight line.
 */

/** `{messageId, parentId}`: the message continues `parentId` (null: it starts the chat). */
export const BRANCH_EVENT = 'chat/branch'
/** `{parentId, messageId}`: the variant shown among `parentId`'s children. */
export const VARIANT_EVENT = 'chat/variant'
/** `{messageIds}`: hidden from the list, the context and exports. */
export const DELETE_EVENT = 'chat/delete'
/** `{messageIds}`: an undone delete. */
export const RESTORE_EVENT = 'chat/restore'
/** Older builds: retry and edit hid the replaced messages for good. Still honoured. */
export const SUPERSEDED_EVENT = 'chat/superseded'

export const BRANCH_EVENT_NAMES = [BRANCH_EVENT, VARIANT_EVENT, DELETE_EVENT, RESTORE_EVENT, SUPERSEDED_EVENT]

/** The key of the chat's first messages, which have no parent. */
const ROOT = ''

export interface BranchNode {
  id: string
  orderSeq: number
  role: 'user' | 'assistant'
}

export interface VariantInfo {
  /** 1-based position of this message among its siblings (oldest first). */
  index: number
  count: number
  /** The sibling ids, oldest first. */
  ids: string[]
}

/** What the branch events of one tape say, read in tape order (the last word wins). */
export class BranchFacts {
  readonly parents = new Map<string, string | null>()
  readonly selected = new Map<string, string>()
  readonly deleted = new Set<string>()
  readonly superseded = new Set<string>()

  read(name: string | null | undefined, data: unknown): void {
    if (!data || typeof data !== 'object') return
    const d = data as Record<string, unknown>
    switch (name) {
      case BRANCH_EVENT:
        if (typeof d.messageId === 'string' && (typeof d.parentId === 'string' || d.parentId === null))
          this.parents.set(d.messageId, d.parentId)
        return
      case VARIANT_EVENT:
        if (typeof d.messageId === 'string' && (typeof d.parentId === 'string' || d.parentId === null))
          this.selected.set(d.parentId ?? ROOT, d.messageId)
        return
      case DELETE_EVENT:
        for (const id of ids(d.messageIds)) this.deleted.add(id)
        return
      case RESTORE_EVENT:
        for (const id of ids(d.messageIds)) this.deleted.delete(id)
        return
      case SUPERSEDED_EVENT:
        for (const id of ids(d.messageIds)) this.superseded.add(id)
    }
  }

  /** Reads the branch events among tape entries (anything else is skipped). */
  readEntries(entries: Iterable<Pick<TapeEntry, 'kind' | 'name' | 'payload'>>): this {
    for (const entry of entries)
      if (entry.kind === 'event' && entry.name && BRANCH_EVENT_NAMES.includes(entry.name))
        this.read(entry.name, (entry.payload as { data?: unknown }).data)
    return this
  }
}

function ids(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []
}

export class BranchTree {
  private readonly byId = new Map<string, BranchNode>()
  private readonly parentOfId = new Map<string, string | null>()
  /** Children per parent key, oldest first. */
  private readonly children = new Map<string, BranchNode[]>()
  private walked: { visible: BranchNode[]; tail: BranchNode | null } | null = null

  constructor(
    nodes: readonly BranchNode[],
    private readonly facts: BranchFacts
  ) {
    const kept = facts.superseded.size ? nodes.filter((n) => !facts.superseded.has(n.id)) : [...nodes]
    let ordered = true // rows come sorted from SQL: no sort then
    for (let i = 1; i < kept.length && ordered; i++) ordered = kept[i - 1].orderSeq < kept[i].orderSeq
    const sorted = ordered ? kept : kept.sort((a, b) => a.orderSeq - b.orderSeq)
    let previous: BranchNode | null = null
    for (const node of sorted) this.byId.set(node.id, node)
    for (const node of sorted) {
      const named = facts.parents.get(node.id)
      // A parent that is not a known earlier message (a broken event) falls back to the line.
      const valid =
        named === null ||
        (named !== undefined && (this.byId.get(named)?.orderSeq ?? Infinity) < node.orderSeq)
      const parent = valid ? named : (previous?.id ?? null)
      this.parentOfId.set(node.id, parent)
      const key = parent ?? ROOT
      const list = this.children.get(key) ?? []
      list.push(node)
      this.children.set(key, list)
      previous = node
    }
  }

  has(id: string): boolean {
    return this.byId.has(id)
  }

  node(id: string): BranchNode | undefined {
    return this.byId.get(id)
  }

  parentOf(id: string): string | null {
    return this.parentOfId.get(id) ?? null
  }

  childrenOf(id: string | null): BranchNode[] {
    return this.children.get(id ?? ROOT) ?? []
  }

  isDeleted(id: string): boolean {
    return this.facts.deleted.has(id)
  }

  /** The chosen branch as the user sees it: deleted messages left out, oldest first. */
  path(): BranchNode[] {
    return this.walk().visible
  }

  /**
   * The last message of the chosen branch, deleted or not: what the next message continues
   * (a deleted last answer keeps its place, so the next prompt is not made its variant).
   */
  tail(): BranchNode | null {
    return this.walk().tail
  }

  /** Messages the chat does not show: deleted, on a variant not chosen, or hidden by an older build. */
  hiddenIds(): Set<string> {
    const shown = new Set(this.path().map((n) => n.id))
    const hidden = new Set(this.facts.superseded)
    for (const id of this.byId.keys()) if (!shown.has(id)) hidden.add(id)
    return hidden
  }

  /** Visible messages from the start of the chat down to (not including) `id`, oldest first. */
  ancestors(id: string): BranchNode[] {
    const chain: BranchNode[] = []
    let current = this.parentOfId.get(id) ?? null
    while (current !== null) {
      const node = this.byId.get(current)
      if (!node) break
      if (!this.facts.deleted.has(node.id)) chain.push(node)
      current = this.parentOfId.get(current) ?? null
    }
    return chain.reverse()
  }

  /** The variants a visible message is one of (its visible siblings, itself included). */
  variants(id: string): VariantInfo {
    const siblings = this.childrenOf(this.parentOf(id)).filter((n) => !this.facts.deleted.has(n.id))
    const index = siblings.findIndex((n) => n.id === id)
    if (index < 0) return { index: 1, count: 1, ids: [id] }
    return { index: index + 1, count: siblings.length, ids: siblings.map((n) => n.id) }
  }

  private walk(): { visible: BranchNode[]; tail: BranchNode | null } {
    if (this.walked) return this.walked
    const visible: BranchNode[] = []
    let tail: BranchNode | null = null
    let key = ROOT
    for (;;) {
      const kids = this.children.get(key)
      if (!kids?.length) break
      // Among the visible children: the chosen one, else the newest. When every child is
      // deleted the walk goes on through one of them, so what followed it stays in the chat.
      let next = kids[0]
      if (kids.length > 1) {
        const alive = kids.filter((n) => !this.facts.deleted.has(n.id))
        const pool = alive.length ? alive : kids
        const chosen = this.facts.selected.get(key)
        next = pool.find((n) => n.id === chosen) ?? pool[pool.length - 1]
      }
      if (!this.facts.deleted.has(next.id)) visible.push(next)
      tail = next
      key = next.id
    }
    this.walked = { visible, tail }
    return this.walked
  }
}

/** The tree of a tape alone (message facts and branch events): what the model's context follows. */
export function branchTreeFromTape(entries: readonly TapeEntry[]): BranchTree {
  const nodes = new Map<string, BranchNode>()
  // A fork's view holds its parent's messages first; each tape numbers its own from 1.
  const tapeRank = new Map<string, number>()
  for (const entry of entries) {
    if (entry.kind !== 'message') continue
    const frame = MessageFactFrame.safeParse(entry.payload)
    if (!frame.success || nodes.has(frame.data.messageId)) continue
    if (!tapeRank.has(entry.tapeId)) tapeRank.set(entry.tapeId, tapeRank.size)
    nodes.set(frame.data.messageId, {
      id: frame.data.messageId,
      orderSeq: tapeRank.get(entry.tapeId)! * 2 ** 32 + frame.data.orderSeq,
      role: frame.data.role
    })
  }
  return new BranchTree([...nodes.values()], new BranchFacts().readEntries(entries))
}

/** The tree of a session from its message rows and its tape's branch events. */
export function loadBranchTree(db: Database.Database, sessionId: string, tapeId: string): BranchTree {
  const nodes = db
    .prepare('SELECT id, order_seq AS orderSeq, role FROM messages WHERE session_id = ? ORDER BY order_seq')
    .all(sessionId) as BranchNode[]
  const facts = new BranchFacts()
  const rows = db
    .prepare(
      `SELECT name, payload_json FROM tape_entries WHERE tape_id = ? AND kind = 'event'
        AND name IN (${BRANCH_EVENT_NAMES.map(() => '?').join(',')}) ORDER BY entry_id`
    )
    .all(tapeId, ...BRANCH_EVENT_NAMES) as { name: string; payload_json: string }[]
  for (const row of rows) {
    try {
      facts.read(row.name, (JSON.parse(row.payload_json) as { data?: unknown }).data)
    } catch {
      // a malformed payload changes nothing
    }
  }
  return new BranchTree(nodes, facts)
}
