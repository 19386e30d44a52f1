import type Database from 'better-sqlite3'
import { z } from 'zod'
import { AppError } from '@shared/errors'
import {
  InteractionKind,
  type InteractionStatus,
  type MessageBlockInput,
  type MessageRecord,
  type PendingInteraction
} from '@shared/types/session'
import type { MessageStore, TapeWriter } from './messageStore'
import { toInteraction, type InteractionRow } from './rows'

export const InteractionRequest = z.object({
  id: z.string().min(1).max(100).optional(),
  kind: InteractionKind,
  blockId: z.string().max(100).nullable().optional(),
  toolCallId: z.string().max(200).nullable().optional(),
  request: z.record(z.string(), z.unknown())
})
export type InteractionRequest = z.input<typeof InteractionRequest>

const ALLOWED: Record<InteractionKind, readonly InteractionStatus[]> = {
  permission: ['granted', 'denied', 'cancelled'],
  question: ['answered', 'cancelled']
}

export interface InteractionStoreDeps {
  db: Database.Database
  transaction: <T>(fn: () => T) => T
  tape: TapeWriter
  messages: MessageStore
  now: () => number
  newId: () => string
  tapeOf: (sessionId: string) => string
}

/**
 * Permission requests and questions that pause an assistant message. A paused message has
 * status `awaiting_interaction` and one row here per open question: nothing is found by
 * scanning blocks. Requests and answers are facts on the tape too.
 */
export class InteractionStore {
  constructor(private readonly deps: InteractionStoreDeps) {}

  /** Saves the blocks so far, opens the interactions and marks the message paused, atomically. */
  pause(
    messageId: string,
    input: { blocks?: readonly MessageBlockInput[]; interactions: readonly InteractionRequest[] }
  ): { message: MessageRecord; interactions: PendingInteraction[] } {
    if (input.interactions.length === 0)
      throw new AppError('invalid_input', 'A pause needs at least one interaction')
    const requests = input.interactions.map((raw) => {
      const parsed = InteractionRequest.safeParse(raw)
      if (!parsed.success) throw new AppError('invalid_interaction', z.prettifyError(parsed.error))
      return parsed.data
    })
    return this.deps.transaction(() => {
      const row = this.deps.messages.requireRow(messageId)
      if (
        row.role !== 'assistant' ||
        !['pending', 'streaming', 'awaiting_interaction'].includes(row.status)
      ) {
        throw new AppError(
          'message_not_pausable',
          `Message ${messageId} is ${row.status} and cannot wait for the user`
        )
      }
      this.deps.messages.settleBlocks(messageId, input.blocks)
      const now = this.deps.now()
      const insert = this.deps.db.prepare(`INSERT INTO pending_interactions
        (id, session_id, message_id, block_id, tool_call_id, kind, status, request_json, created_at)
        VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?)`)
      const ids = requests.map((request) => {
        const id = request.id ?? this.deps.newId()
        insert.run(
          id,
          row.session_id,
          messageId,
          request.blockId ?? null,
          request.toolCallId ?? null,
          request.kind,
          JSON.stringify(request.request),
          now
        )
        return id
      })
      this.deps.messages.setStatus(messageId, 'awaiting_interaction')
      // Calls that already finished in this round are facts now, whatever the user answers.
      const message = this.deps.messages.writeFacts(messageId)
      const tapeId = this.deps.tapeOf(row.session_id)
      const interactions = ids.map((id) => this.require(id))
      this.deps.tape.append(
        tapeId,
        interactions.map((interaction) => ({
          kind: 'event' as const,
          name: 'interaction/requested',
          payload: {
            name: 'interaction/requested',
            data: { ...interactionFact(interaction), request: interaction.request }
          },
          provenanceKey: `interaction:${interaction.id}:requested`
        }))
      )
      return { message, interactions }
    })
  }

  /**
   * Records the user's answer. Answers may come in any order; `remaining` tells the caller
   * whether this was the last open interaction of the message (time to resume).
   */
  resolve(
    interactionId: string,
    status: InteractionStatus,
    response: Record<string, unknown> = {}
  ): { interaction: PendingInteraction; remaining: number } {
    return this.deps.transaction(() => {
      const current = this.require(interactionId)
      if (current.status !== 'pending') {
        throw new AppError(
          'interaction_not_pending',
          `Interaction ${interactionId} was already ${current.status}`
        )
      }
      if (!ALLOWED[current.kind].includes(status)) {
        throw new AppError('invalid_input', `A ${current.kind} cannot be resolved as ${status}`)
      }
      this.deps.db
        .prepare(
          'UPDATE pending_interactions SET status = ?, response_json = ?, resolved_at = ? WHERE id = ?'
        )
        .run(status, JSON.stringify(response), this.deps.now(), interactionId)
      const interaction = this.require(interactionId)
      this.deps.tape.append(this.deps.tapeOf(interaction.sessionId), {
        kind: 'event',
        name: 'interaction/resolved',
        payload: { name: 'interaction/resolved', data: { ...interactionFact(interaction), response } },
        provenanceKey: `interaction:${interactionId}:resolved`
      })
      return { interaction, remaining: this.pendingCount(interaction.messageId) }
    })
  }

  /** Closes every open interaction of a message at once (stop while paused). */
  resolveAll(
    messageId: string,
    status: 'denied' | 'cancelled',
    response: Record<string, unknown> = {}
  ): PendingInteraction[] {
    return this.deps.transaction(() =>
      this.list({ messageId, status: 'pending' }).map((open) => {
        const resolvedAs = open.kind === 'question' ? 'cancelled' : status
        return this.resolve(open.id, resolvedAs, response).interaction
      })
    )
  }

  list(filter: { sessionId?: string; messageId?: string; status?: InteractionStatus }): PendingInteraction[] {
    const conditions = [
      ['session_id', filter.sessionId],
      ['message_id', filter.messageId],
      ['status', filter.status]
    ].filter((pair): pair is [string, string] => pair[1] !== undefined)
    const where = conditions.map(([column]) => `${column} = ?`)
    const params = conditions.map(([, value]) => value)
    const rows = this.deps.db
      .prepare(
        `SELECT * FROM pending_interactions ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at, rowid`
      )
      .all(...params) as InteractionRow[]
    return rows.map(toInteraction)
  }

  pendingCount(messageId: string): number {
    return (
      this.deps.db
        .prepare("SELECT count(*) AS n FROM pending_interactions WHERE message_id = ? AND status = 'pending'")
        .get(messageId) as { n: number }
    ).n
  }

  require(interactionId: string): PendingInteraction {
    const row = this.deps.db.prepare('SELECT * FROM pending_interactions WHERE id = ?').get(interactionId) as
      InteractionRow | undefined
    if (!row) throw new AppError('interaction_not_found', `No interaction ${interactionId}`)
    return toInteraction(row)
  }
}

function interactionFact(interaction: PendingInteraction): Record<string, unknown> {
  return {
    interactionId: interaction.id,
    messageId: interaction.messageId,
    kind: interaction.kind,
    status: interaction.status,
    toolCallId: interaction.toolCallId
  }
}
