import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { z } from 'zod'
import description from './descriptions/write.md?raw'
import { FILESYSTEM_SERVER, ToolError, checkFiles, defineAgentTool, ok, resolvePath } from './defineTool'
import { fsToolError } from './fsErrors'

const input = z.strictObject({
  path: z.string().min(1).describe('File to write: relative to the workspace, absolute, or starting with ~'),
  content: z.string().describe('The complete new content of the file')
})

export const writeTool = defineAgentTool({
  name: 'write',
  server: FILESYSTEM_SERVER,
  readOnly: false,
  description,
  input,
  aliases: { file_path: 'path' },
  checkPermission: (args, ctx) => checkFiles(ctx, 'write', 'write', [args.path]),
  async execute(args, ctx) {
    const path = resolvePath(ctx, args.path)
    const previous = await readExisting(path)
    try {
      await mkdir(dirname(path), { recursive: true })
      await ctx.runtime.recordFileSnapshot({ sessionId: ctx.sessionId, toolCallId: ctx.toolCallId, tool: 'write', path, previousContent: previous })
      await writeFile(path, args.content, 'utf8')
    } catch (error) {
      throw fsToolError(error, args.path)
    }
    const bytes = Buffer.byteLength(args.content)
    const verb = previous === null ? 'Created' : 'Overwrote'
    return ok(`${verb} ${args.path} (${bytes} bytes)`, `${verb} ${args.path} (${bytes} bytes, ${countLines(args.content)} lines).`, {
      path: args.path,
      bytes,
      created: previous === null
    })
  }
})

/** The current content, or null when the file does not exist yet. */
async function readExisting(path: string): Promise<string | null> {
  try {
    const info = await stat(path)
    if (info.isDirectory()) throw new ToolError('is_directory', `${path} is a directory`)
    return await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error instanceof ToolError ? error : fsToolError(error, path)
  }
}

function countLines(text: string): number {
  if (text === '') return 0
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0)
}
