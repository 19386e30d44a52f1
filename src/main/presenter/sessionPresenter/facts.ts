import type { MessageBlock, MessageRecord } from '@shared/types/session'
import type { TapeEntryInput } from '@shared/types/tape'

/**
 * How projection rows become tape facts. A message fact carries the whole message (content or
 * blocks) so the tape alone can rebuild the conversation; a provenance key per revision makes
 * a retried write a no-op.
 */
export function messageFact(message: MessageRecord, revision: number): TapeEntryInput {
  const payload: Record<string, unknown> = {
    messageId: message.id,
    orderSeq: message.orderSeq,
    role: message.role,
    status: message.status
  }
  if (message.role === 'user') payload.content = message.content
  else {
    payload.blocks = message.blocks.map(blockFact)
    payload.metadata = message.metadata
  }
  return {
    kind: 'message',
    name: `message/${message.role}`,
    payload,
    meta: { revision },
    provenanceKey: `message:${message.id}:r${revision}`
  }
}

function blockFact(block: MessageBlock): Record<string, unknown> {
  const fact: Record<string, unknown> = {
    id: block.id,
    kind: block.kind,
    status: block.status,
    text: block.text
  }
  if (block.toolCall) fact.toolCall = block.toolCall
  if (block.data) fact.data = block.data
  return fact
}

/**
 * A tool call and its result become facts once the call has finished (`success` or `error`
 * with a response). Calls still waiting for the user have no result yet and are left out.
 */
export function toolFacts(message: MessageRecord): TapeEntryInput[] {
  const facts: TapeEntryInput[] = []
  for (const block of message.blocks) {
    const call = block.toolCall
    if (block.kind !== 'tool_call' || !call) continue
    if ((block.status !== 'success' && block.status !== 'error') || call.response === undefined) continue
    facts.push({
      kind: 'tool_call',
      name: call.name,
      payload: { messageId: message.id, toolCallId: call.id, name: call.name, params: call.params },
      provenanceKey: `tool_call:${message.id}:${call.id}`
    })
    facts.push({
      kind: 'tool_result',
      name: call.name,
      payload: {
        messageId: message.id,
        toolCallId: call.id,
        name: call.name,
        response: call.response,
        isError: block.status === 'error' || call.isError === true
      },
      provenanceKey: `tool_result:${message.id}:${call.id}`
    })
  }
  return facts
}
