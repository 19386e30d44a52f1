import type { MessageBlock } from '@shared/types/blocks'
import type { BlockFact, MessageFact, ToolCallFact, ToolResultFact } from '@shared/types/messageFacts'
import type { MessageRecord } from '@shared/types/session'
import type { TapeEntryInput } from '@shared/types/tape'

/**
 * How projection rows become tape facts. A message fact carries the whole message (content or
 * blocks) so the tape alone can rebuild the conversation; a provenance key per revision makes
 * a retried write a no-op.
 */
export function messageFact(message: MessageRecord, revision: number): TapeEntryInput {
  const base = { messageId: message.id, orderSeq: message.orderSeq, status: message.status }
  const payload: MessageFact =
    message.role === 'user'
      ? { ...base, role: 'user', content: message.content }
      : { ...base, role: 'assistant', blocks: message.blocks.map(blockFact), metadata: message.metadata }
  return {
    kind: 'message',
    name: `message/${message.role}`,
    payload,
    meta: { revision },
    provenanceKey: `message:${message.id}:r${revision}`
  }
}

/** The block without its times (the fact has its own). */
function blockFact(block: MessageBlock): BlockFact {
  const { createdAt: _created, updatedAt: _updated, ...fact } = block
  return fact
}

/**
 * A tool call and its result become facts once the call has finished (`success` or `error`
 * with a response). Calls still waiting for the user have no result yet and are left out.
 */
export function toolFacts(message: MessageRecord): TapeEntryInput[] {
  const facts: TapeEntryInput[] = []
  for (const block of message.blocks) {
    if (block.kind !== 'tool_call') continue
    const call = block.toolCall
    if ((block.status !== 'success' && block.status !== 'error') || call.response === undefined) continue
    const callFact: ToolCallFact = {
      messageId: message.id,
      toolCallId: call.id,
      name: call.name,
      params: call.params
    }
    const resultFact: ToolResultFact = {
      messageId: message.id,
      toolCallId: call.id,
      name: call.name,
      response: call.response,
      isError: block.status === 'error' || call.isError === true
    }
    facts.push(
      {
        kind: 'tool_call',
        name: call.name,
        payload: callFact,
        provenanceKey: `tool_call:${message.id}:${call.id}`
      },
      {
        kind: 'tool_result',
        name: call.name,
        payload: resultFact,
        provenanceKey: `tool_result:${message.id}:${call.id}`
      }
    )
  }
  return facts
}
