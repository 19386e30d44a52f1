import type { BlockAccumulator } from './blockAccumulator'
import type { ToolCallResult } from '../toolPresenter'

/** Tools whose images are the answer itself (not, say, a file `read` showed the model). */
const IMAGE_RESULT_TOOLS = new Set(['image_generate'])

/**
 * Each image such a tool produced becomes an image block after its tool block, with the file
 * it was saved to. Requests never include image blocks; the tool result already told the model.
 */
export function addToolImageBlocks(acc: BlockAccumulator, callId: string, result: ToolCallResult): void {
  if (result.rawData.isError || !IMAGE_RESULT_TOOLS.has(result.rawData.name)) return
  const saved = (result.rawData.toolResult.data as { images?: { path: string }[] } | undefined)?.images ?? []
  let index = 0
  for (const item of result.content) {
    if (item.type !== 'image') continue
    acc.add({
      kind: 'image',
      status: 'success',
      text: '',
      data: { mimeType: item.mimeType, data: item.data, path: saved[index]?.path, toolCallId: callId }
    })
    index++
  }
}
