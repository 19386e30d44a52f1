import { homedir } from 'node:os'
import type { PermissionRequest, RiskLevel } from '@shared/types/permission'
import { isInside, isSensitivePath, realPathOf, resolveUserPath, tildify } from './paths'
import { reasonOf } from './reasonText'

export type FileAccess = 'read' | 'write'

/** Where a session may go without asking. */
export interface FileScope {
  sessionId: string
  workspaceDir: string
  /** The session's own data folder (spilled tool output): readable, never writable by tools. */
  sessionDataDir?: string
  tool: string
  server: string
}

export interface ResolvedFile {
  /** Absolute path as the model meant it (`~` expanded, relative to the base dir). */
  requested: string
  /** Where it really is, after symlinks (nearest existing parent for a new file). */
  real: string
}

/**
 * Decides whether a read or write needs the user. Inside the workspace (compared by real path,
 * so a symlink pointing out is caught) is free; anything else is a request. Pure: it looks at
 * the disk but changes nothing.
 */
export class FilePermissionService {
  constructor(private readonly home: string = homedir()) {}

  resolve(path: string, baseDir: string): ResolvedFile {
    const requested = resolveUserPath(path, baseDir, this.home)
    return { requested, real: realPathOf(requested) }
  }

  /** The request the user must answer, or null when every path is inside the allowed roots. */
  check(access: FileAccess, paths: string[], scope: FileScope, baseDir = scope.workspaceDir): PermissionRequest | null {
    const roots = this.allowedRoots(access, scope)
    const outside: string[] = []
    for (const path of paths) {
      const { real } = this.resolve(path, baseDir)
      if (!roots.some((root) => isInside(real, root))) outside.push(real)
    }
    if (outside.length === 0) return null
    const unique = [...new Set(outside)].sort()
    const sensitive = unique.some(isSensitivePath)
    const risk: RiskLevel = access === 'write' ? (sensitive ? 'critical' : 'high') : sensitive ? 'high' : 'medium'
    const shown = unique.map((p) => tildify(p, this.home)).join(', ')
    const reason = reasonOf(access === 'read' ? 'outside_workspace_read' : 'outside_workspace_write', { paths: shown })
    return {
      type: access,
      tool: scope.tool,
      server: scope.server,
      sessionId: scope.sessionId,
      risk,
      reason: reason.text,
      reasonCodes: [reason.code],
      paths: unique,
      suggestedRule: { kind: access, pattern: tildify(unique[0], this.home), effect: 'allow' }
    }
  }

  private allowedRoots(access: FileAccess, scope: FileScope): string[] {
    const roots = [realPathOf(scope.workspaceDir)]
    if (access === 'read' && scope.sessionDataDir) roots.push(realPathOf(scope.sessionDataDir))
    return roots
  }
}
