import { createHash } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ToolContentItem } from '@shared/types/tools'

export const OUTPUT_SPILL_CHARS = 30_000
export const OUTPUT_PREVIEW_CHARS = 2_000

export interface GuardedOutput {
  content: ToolContentItem[]
  spilled?: { path: string; totalChars: number }
}

/**
 * Keeps a huge result out of the context window: text over the limit goes to a file in the
 * session's data folder and the model gets a preview, the size and the full path (which `read`
 * can open, since a session may always read its own data folder).
 */
export async function guardOutput(
  content: ToolContentItem[],
  options: { sessionDataDir: string; toolCallId: string; toolName: string; limit?: number }
): Promise<GuardedOutput> {
  const limit = options.limit ?? OUTPUT_SPILL_CHARS
  const texts = content.filter((c): c is { type: 'text'; text: string } => c.type === 'text')
  const totalChars = texts.reduce((sum, c) => sum + c.text.length, 0)
  if (totalChars <= limit) return { content }
  const fullText = texts.map((c) => c.text).join('\n')
  const file = join(
    options.sessionDataDir,
    `tool_${safeName(options.toolCallId)}_${createHash('sha1').update(options.toolCallId).digest('hex').slice(0, 8)}.txt`
  )
  await mkdir(options.sessionDataDir, { recursive: true })
  await writeFile(file, fullText, 'utf8')
  const notice = [
    `[Output of ${options.toolName} too large: ${totalChars} characters. The full output is saved in ${file}`,
    `Read it in parts with read (offset/limit) or search it with grep. Preview of the first ${OUTPUT_PREVIEW_CHARS} characters:]`,
    fullText.slice(0, OUTPUT_PREVIEW_CHARS)
  ].join('\n')
  const others = content.filter((c) => c.type !== 'text')
  return { content: [{ type: 'text', text: notice }, ...others], spilled: { path: file, totalChars } }
}

/** A file-name-safe version of an id from a model or server. */
export function safeName(value: string): string {
  return value.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 80) || 'x'
}
