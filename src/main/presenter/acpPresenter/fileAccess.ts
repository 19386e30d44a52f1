import type { FileHandle } from 'node:fs/promises'
import {
  RequestError,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type WriteTextFileRequest
} from '@agentclientprotocol/sdk'
import type { PermissionRequest } from '@shared/types/permission'
import type { FileAccess, FilePermissionService, FileScope } from '../permission/filePermissionService'
import { secretsRefusal } from '../permission/filePermissionService'
import { pathProblem } from '../toolPresenter/agentTools/defineTool'
import {
  ensureParentFolders,
  openForWrite,
  openVerified,
  pathChanged,
  replaceContent
} from '../toolPresenter/agentTools/safeFile'
import { fsToolError } from '../toolPresenter/agentTools/fsErrors'
import { deniedError, type AcpAuthority, type AgentRequestContext, type BoundaryMethod } from './authority'

/** Larger text files are refused rather than sent over the pipe whole. */
export const READ_MAX_BYTES = 10 * 1024 * 1024

/**
 * `fs/read_text_file` and `fs/write_text_file` inside our boundary: judged by the
 * FilePermissionService (reads and writes apart; free inside the workspace; outside, protected
 * entries and the data folder ask; the secrets file is refused), then run through the same
 * TOCTOU-safe helpers as the `read` and `write` tools, with a snapshot before each write.
 */
export class AgentFiles {
  constructor(private readonly deps: { files: FilePermissionService; authority: AcpAuthority }) {}

  async read(ctx: AgentRequestContext, params: ReadTextFileRequest): Promise<ReadTextFileResponse> {
    const approved = await this.authorize(ctx, 'read', params.path)
    const real = this.realForRun(ctx, 'read', params.path, approved)
    const handle = await openOrFail(real, params.path, 'read')
    try {
      const { size } = await handle.stat()
      if (size > READ_MAX_BYTES)
        throw RequestError.invalidParams({ path: params.path }, `${params.path} is larger than 10 MB`)
      const bytes = await handle.readFile()
      if (bytes.subarray(0, 8192).includes(0))
        throw RequestError.invalidParams({ path: params.path }, `${params.path} is a binary file`)
      return { content: lineWindow(bytes.toString('utf8'), params.line ?? null, params.limit ?? null) }
    } finally {
      await handle.close()
    }
  }

  async write(ctx: AgentRequestContext, params: WriteTextFileRequest): Promise<Record<string, never>> {
    const approved = await this.authorize(ctx, 'write', params.path)
    const real = this.realForRun(ctx, 'write', params.path, approved)
    try {
      await ensureParentFolders(real, params.path)
    } catch (error) {
      throw agentError(error, params.path)
    }
    const { handle, created } = await openForWrite(real, params.path).catch((error: unknown) => {
      throw agentError(error, params.path)
    })
    try {
      const previousContent = created ? null : await handle.readFile('utf8')
      await ctx.turn?.hooks.recordFileSnapshot?.({
        chatSessionId: ctx.chatSessionId,
        agentId: ctx.agentId,
        toolCallId: ctx.turn.tools.callForPath(params.path),
        path: params.path,
        previousContent
      })
      await replaceContent(handle, params.content)
    } catch (error) {
      throw agentError(error, params.path)
    } finally {
      await handle.close()
    }
    return {}
  }

  /** Null when the path is free; else the request as the gate or the user approved it. */
  private async authorize(
    ctx: AgentRequestContext,
    access: FileAccess,
    path: string
  ): Promise<PermissionRequest | null> {
    const problem = pathProblem(path)
    if (problem) throw RequestError.invalidParams({ path }, `not a usable path: ${problem}`)
    const scope = scopeOf(ctx, access)
    const refusal = this.deps.files.refusal([path], scope)
    if (refusal) throw deniedError(refusal)
    const request = this.deps.files.check(access, [path], scope)
    if (!request) return null
    const method: BoundaryMethod = access === 'read' ? 'fs/read_text_file' : 'fs/write_text_file'
    return this.deps.authority.authorize(ctx, request, method, ctx.turn?.tools.callForPath(path) ?? null)
  }

  /**
   * The real path to touch, resolved again now: still free, or exactly a path the approval
   * named. A link swapped in while the user was deciding is refused.
   */
  private realForRun(
    ctx: AgentRequestContext,
    access: FileAccess,
    path: string,
    approved: PermissionRequest | null
  ): string {
    const verdict = this.deps.files.judge(access, path, scopeOf(ctx, access))
    if (verdict.kind === 'unresolvable')
      throw deniedError(`Cannot tell where ${path} really leads (${verdict.error}); it was not touched.`)
    if (verdict.kind === 'secrets') throw deniedError(secretsRefusal(path))
    const allowed =
      verdict.kind === 'inside' ||
      (approved?.type === access && (approved.paths ?? []).includes(verdict.real))
    if (!allowed) throw deniedError(pathChanged(path, verdict.real).message)
    return verdict.real
  }
}

function scopeOf(ctx: AgentRequestContext, access: FileAccess): FileScope {
  return {
    sessionId: ctx.chatSessionId,
    workspaceDir: ctx.workspaceDir,
    sessionDataDir: ctx.sessionDataDir,
    tool: access === 'read' ? 'fs/read_text_file' : 'fs/write_text_file',
    server: `acp:${ctx.agentId}`
  }
}

async function openOrFail(real: string, shown: string, purpose: 'read'): Promise<FileHandle> {
  try {
    return await openVerified(real, shown, purpose)
  } catch (error) {
    throw agentError(error, shown)
  }
}

/** `line` is 1-based; `limit` counts lines from there. */
export function lineWindow(text: string, line: number | null, limit: number | null): string {
  if (line === null && limit === null) return text
  const lines = text.split('\n')
  const start = Math.max(0, (line ?? 1) - 1)
  const end = limit === null ? lines.length : start + Math.max(0, limit)
  return lines.slice(start, end).join('\n')
}

/** A tool-side file error as the JSON-RPC error the agent gets. */
function agentError(error: unknown, path: string): Error {
  if (error instanceof RequestError) return error
  const mapped = fsToolError(error, path) as Error & { code?: unknown }
  const code = typeof mapped.code === 'string' ? mapped.code : ''
  if (code === 'not_found') return RequestError.resourceNotFound(path)
  if (['path_changed', 'secrets_file', 'unresolvable_path', 'access_denied'].includes(code))
    return deniedError(mapped.message)
  if (['is_directory', 'not_a_file'].includes(code))
    return RequestError.invalidParams({ path }, mapped.message)
  return RequestError.internalError({ path }, mapped.message)
}
