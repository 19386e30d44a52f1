import { createTwoFilesPatch } from 'diff'
import { z } from 'zod'
import { TOOL } from '@shared/builtinTools'
import description from './descriptions/edit.md?raw'
import {
  FILESYSTEM_SERVER,
  ToolError,
  checkFiles,
  defineAgentTool,
  ok,
  pathArg,
  refuseFiles,
  resolvePath
} from './defineTool'
import { fsToolError } from './fsErrors'
import { openVerified, replaceContent, resolveForRun } from './safeFile'

export const EDIT_MAX_DIFF_CHARS = 10_000

const input = z.strictObject({
  path: pathArg.describe('File to edit'),
  old_string: z.string().min(1).describe('Exact text to replace (case-sensitive, including whitespace)'),
  new_string: z.string().describe('Replacement text, inserted literally'),
  replace_all: z
    .boolean()
    .default(false)
    .describe('Replace every occurrence instead of requiring exactly one')
})

export const editTool = defineAgentTool({
  name: TOOL.edit,
  group: FILESYSTEM_SERVER,
  labelKey: 'settingsAgentTools.labels.edit',
  readOnly: false,
  parallelSafe: false,
  description,
  input,
  aliases: {
    oldText: 'old_string',
    newText: 'new_string',
    replaceAll: 'replace_all',
    old_str: 'old_string',
    new_str: 'new_string',
    file_path: 'path'
  },
  refuse: (args, ctx) => refuseFiles(ctx, 'edit', [args.path]),
  checkPermission: (args, ctx) => checkFiles(ctx, 'edit', 'write', [args.path]),
  async execute(args, ctx) {
    const path = resolvePath(ctx, args.path)
    // Read and rewrite through one handle on the path checked just now (see write).
    const real = resolveForRun(ctx, 'edit', 'write', args.path)
    const handle = await openVerified(real, args.path, 'update')
    let change: { original: string; updated: string; count: number }
    try {
      const original = await handle.readFile('utf8')
      change = { original, ...replaced(original, args) }
      await ctx.runtime.recordFileSnapshot({
        sessionId: ctx.sessionId,
        toolCallId: ctx.toolCallId,
        tool: TOOL.edit,
        path,
        previousContent: original
      })
      await replaceContent(handle, change.updated)
    } catch (error) {
      throw fsToolError(error, args.path)
    } finally {
      await handle.close()
    }
    const { original, updated, count } = change
    const replacements = args.replace_all ? count : 1
    const patch = createTwoFilesPatch(
      args.path,
      args.path,
      original.replace(/\r\n/g, '\n'),
      updated.replace(/\r\n/g, '\n'),
      '',
      '',
      { context: 3 }
    )
    const diff =
      patch.length > EDIT_MAX_DIFF_CHARS ? `${patch.slice(0, EDIT_MAX_DIFF_CHARS)}\n… [diff cut]` : patch
    return ok(
      `Edited ${args.path} (${replacements} replacement${replacements === 1 ? '' : 's'})`,
      `Edited ${args.path}: ${replacements} replacement(s).\n${diff}`,
      {
        path: args.path,
        replacements,
        diff
      }
    )
  }
})

/** The new content, or a ToolError the model can act on (absent, not unique, unchanged). */
function replaced(original: string, args: z.output<typeof input>): { updated: string; count: number } {
  const crlf = usesCrlf(original)
  // The model writes \n; a CRLF file must keep its endings, so match and insert in CRLF.
  const oldText = crlf ? toCrlf(args.old_string) : args.old_string
  const newText = crlf ? toCrlf(args.new_string) : args.new_string
  if (oldText === newText)
    throw new ToolError('no_change', 'old_string and new_string are the same; nothing to edit')
  const count = original.split(oldText).length - 1
  if (count === 0) {
    throw new ToolError(
      'not_found',
      `old_string was not found in ${args.path}. Read the file and copy the text exactly, including whitespace.`
    )
  }
  if (count > 1 && !args.replace_all) {
    throw new ToolError(
      'not_unique',
      `old_string appears ${count} times in ${args.path}. Include more surrounding text to make it unique, or set replace_all to true.`
    )
  }
  // split/join instead of String.replace: `$&`, `$1`, `$$` in the new text stay literal.
  return {
    updated: args.replace_all
      ? original.split(oldText).join(newText)
      : replaceFirst(original, oldText, newText),
    count
  }
}

function usesCrlf(text: string): boolean {
  const crlf = text.split('\r\n').length - 1
  if (crlf === 0) return false
  const lf = text.split('\n').length - 1
  return crlf * 2 >= lf
}

function toCrlf(text: string): string {
  return text.replace(/\r?\n/g, '\r\n')
}

function replaceFirst(text: string, search: string, replacement: string): string {
  const index = text.indexOf(search)
  return text.slice(0, index) + replacement + text.slice(index + search.length)
}
