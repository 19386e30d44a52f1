import type { MessageRecord, SessionRecord } from '@shared/types/session'
import type { SessionPresenter } from '../sessionPresenter'
import type { BranchTree } from '../sessionPresenter/branches'

/**
 * Where the loop's messages go in the chat's tree (sessionPresenter/branches.ts). Retry and
 * edit never delete: the new answer or prompt is a sibling of the old one, and the old one
 * stays one click away as a variant.
 */
export class MessageHistory {
  constructor(
    private readonly deps: {
      messages: SessionPresenter['messages']
      branches: SessionPresenter['branches']
    }
  ) {}

  tree(session: SessionRecord): BranchTree {
    return this.deps.branches.tree(session.id)
  }

  /** The message a new prompt continues: the end of the chosen branch. */
  tail(session: SessionRecord): string | null {
    return this.deps.branches.tail(session.id)
  }

  /** The chosen branch from `fromId` on (what a retry or edit replaces in the window). */
  shownFrom(session: SessionRecord, fromId: string): string[] {
    const path = this.tree(session).path()
    const at = path.findIndex((n) => n.id === fromId)
    return at < 0 ? [] : path.slice(at).map((n) => n.id)
  }

  /** The user message an assistant message answers: its nearest visible user ancestor. */
  userMessageBefore(session: SessionRecord, messageId: string): MessageRecord | null {
    const tree = this.tree(session)
    const parent = tree.parentOf(messageId)
    const node = parent ? tree.node(parent) : undefined
    const user =
      node?.role === 'user' ? node : [...tree.ancestors(messageId)].reverse().find((n) => n.role === 'user')
    return user ? (this.deps.messages.get(user.id) ?? null) : null
  }
}
