import { z } from 'zod'
import { TOOL } from '@shared/builtinTools'
import description from './descriptions/write.md?raw'
import {
  FILESYSTEM_SERVER,
  checkFiles,
  defineAgentTool,
  ok,
  pathArg,
  refuseFiles,
  resolvePath
} from './defineTool'
import { fsToolError } from './fsErrors'
import { ensureParentFolders, openForWrite, replaceContent, resolveForRun } from './safeFile'

const input = z.strictObject({
  path: pathArg.describe('File to write: relative to the workspace, absolute, or starting with ~'),
  content: z.string().describe('The complete new content of the file')
})

export const writeTool = defineAgentTool({
  name: TOOL.write,
  group: FILESYSTEM_SERVER,
  labelKey: 'settingsAgentTools.labels.write',
  readOnly: false,
  parallelSafe: false,
  description,
  input,
  aliases: { file_path: 'path' },
  refuse: (args, ctx) => refuseFiles(ctx, 'write', [args.path]),
  checkPermission: (args, ctx) => checkFiles(ctx, 'write', 'write', [args.path]),
  async execute(args, ctx) {
    const path = resolvePath(ctx, args.path)
    // The real path is checked again now, and written through a handle proven to be that file:
    // a link swapped in after the permission check cannot send the write elsewhere.
    const real = resolveForRun(ctx, 'write', 'write', args.path)
    await ensureParentFolders(real, args.path)
    const { handle, created } = await openForWrite(real, args.path)
    let previous: string | null
    try {
      previous = created ? null : await handle.readFile('utf8')
      await ctx.runtime.recordFileSnapshot({
        sessionId: ctx.sessionId,
        toolCallId: ctx.toolCallId,
        tool: TOOL.write,
        path,
        previousContent: previous
      })
      await replaceContent(handle, args.content)
    } catch (error) {
      throw fsToolError(error, args.path)
    } finally {
      await handle.close()
    }
    const bytes = Buffer.byteLength(args.content)
    const verb = previous === null ? 'Created' : 'Overwrote'
    return ok(
      `${verb} ${args.path} (${bytes} bytes)`,
      `${verb} ${args.path} (${bytes} bytes, ${countLines(args.content)} lines).`,
      {
        path: args.path,
        bytes,
        created: previous === null
      }
    )
  }
})

function countLines(text: string): number {
  if (text === '') return 0
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}
