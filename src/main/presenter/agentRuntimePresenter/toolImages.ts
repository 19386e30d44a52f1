import type { BlockAccumulator } from './blockAccumulator'
import type { ToolCallResult } from '../toolPresenter'

/**
 * The images a call gave as its answer (`effects.images`) become image blocks after its tool
 * block, each with the file it was saved to. Requests never include image blocks; the tool
 * result already told the model.
 */
export function addToolImageBlocks(acc: BlockAccumulator, callId: string, result: ToolCallResult): void {
  if (result.rawData.isError) return
  for (const image of result.rawData.effects?.images ?? []) {
    acc.add({
      kind: 'image',
      status: 'success',
      text: '',
      data: {
        mimeType: image.mimeType,
        data: image.data,
        ...(image.path ? { path: image.path } : {}),
        toolCallId: callId
      }
    })
  }
}
