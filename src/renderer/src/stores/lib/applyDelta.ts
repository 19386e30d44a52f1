import { forgetAppends, logAppend } from './appendLog'
import type { ChatMessageView, DeltaOp, MessageBlock } from '@shared/types/chat'

/**
 * Applies one batch of ops to a (reactive) message in place. Appends touch only the block's
 * `text` / `toolCall.params`, and upserts assign onto the existing block object, so only the
 * components that read the changed block re-render.
 */
export function applyOps(message: ChatMessageView, ops: readonly DeltaOp[]): void {
  for (const op of ops) {
    if (op.op === 'append') {
      const block = findBlock(message, op.blockId)
      if (!block) continue
      if (op.field === 'params' && block.kind === 'tool_call') block.toolCall.params += op.text
      else {
        logAppend(block, block.text.length, op.text)
        block.text += op.text
      }
    } else {
      const block = findBlock(message, op.block.id)
      if (block && op.block.text !== block.text) noteTextChange(block, op.block.text)
      if (block) Object.assign(block, op.block)
      else message.blocks.push(op.block)
    }
  }
}

/**
 * An upsert that carries appends the renderer has not seen (the block's last upsert, which
 * holds the appends queued with it) extends the text: logged as one more append, so a view
 * renders the new end instead of the whole reply again. Any other change is a replacement.
 */
function noteTextChange(block: MessageBlock, text: string): void {
  const current = block.text
  if (text.length > current.length && text.startsWith(current))
    logAppend(block, current.length, text.slice(current.length))
  else forgetAppends(block)
}

function findBlock(message: ChatMessageView, blockId: string): MessageBlock | undefined {
  // Blocks are appended, so the one being streamed is almost always the last.
  for (let i = message.blocks.length - 1; i >= 0; i--)
    if (message.blocks[i].id === blockId) return message.blocks[i]
  return undefined
}

export type DeltaVerdict = 'apply' | 'stale' | 'gap'

/** Decides what to do with delta `seq` of `runId` given where the message's stream stands. */
export function judgeDelta(cursor: ChatMessageView['stream'], runId: string, seq: number): DeltaVerdict {
  if (!cursor || cursor.runId !== runId) return seq === 1 ? 'apply' : 'gap'
  if (seq <= cursor.seq) return 'stale'
  return seq === cursor.seq + 1 ? 'apply' : 'gap'
}

export function isVisibleMessage(message: ChatMessageView): boolean {
  return message.metadata?.superseded !== true
}
