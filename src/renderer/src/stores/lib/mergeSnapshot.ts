import type { ChatMessageView } from '@shared/types/chat'

type Block = ChatMessageView['blocks'][number]

/** Same block when every field is the same value (strings by value, nested objects by identity). */
function sameBlock(a: Block, b: Block): boolean {
  const keysA = Object.keys(a) as Array<keyof Block>
  if (keysA.length !== Object.keys(b).length) return false
  return keysA.every((key) => a[key] === b[key])
}

/**
 * Brings a live message up to a snapshot read from the back end, keeping each block object the
 * snapshot did not change: a view bound to a block re-renders only when that block changed. (At the
 * end of a long reply the final snapshot carried the whole text again, and replacing its block made
 * the page parse and render all of it once more while the user typed.)
 */
export function mergeSnapshot(known: ChatMessageView, fresh: ChatMessageView): void {
  const { blocks, ...fields } = fresh
  Object.assign(known, fields)
  const kept = known.blocks
  const merged = blocks.map((block, index) => {
    const old = kept[index]
    return old !== undefined && sameBlock(old, block) ? old : block
  })
  if (merged.length !== kept.length || merged.some((block, index) => block !== kept[index]))
    known.blocks = merged
}
