import { stat } from 'node:fs/promises'
import type { Stats } from 'node:fs'
import { ToolError } from './defineTool'

/** stat that turns the usual errno codes into messages a model can act on. */
export async function statOrThrow(path: string): Promise<Stats> {
  try {
    return await stat(path)
  } catch (error) {
    throw fsToolError(error, path)
  }
}

export function fsToolError(error: unknown, path: string): Error {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return new ToolError('not_found', `File not found: ${path}`)
  if (code === 'EACCES' || code === 'EPERM')
    return new ToolError('access_denied', `The operating system denied access to ${path}`)
  if (code === 'EISDIR') return new ToolError('is_directory', `${path} is a directory`)
  if (code === 'ENOTDIR') return new ToolError('not_found', `A parent of ${path} is not a folder`)
  return error instanceof Error ? error : new Error(String(error))
}
