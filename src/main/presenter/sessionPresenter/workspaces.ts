import { mkdirSync, realpathSync, rmSync, statSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { AppError } from '@shared/errors'
import { isInside } from '../permission/paths'

/**
 * Where chats work. A chat always has a folder of its own choosing or a scratch folder in the
 * data folder; it never falls back to the host's working directory or home. The rest of the
 * data folder (database, secrets, spills) can never be a workspace.
 */
export class Workspaces {
  readonly scratchRoot: string

  constructor(private readonly deps: { dataDir: string }) {
    this.scratchRoot = join(deps.dataDir, 'scratch')
  }

  /** The scratch folder of a chat (created on demand). */
  scratchDirOf(sessionId: string): string {
    return join(this.scratchRoot, sessionId.replace(/[^A-Za-z0-9_-]/g, '_'))
  }

  isScratch(path: string): boolean {
    return isInside(resolve(path), this.scratchRoot) && resolve(path) !== this.scratchRoot
  }

  /** Makes sure a scratch folder exists before tools use it; a chosen folder is left alone. */
  ensure(path: string): string {
    if (this.isScratch(path)) mkdirSync(path, { recursive: true, mode: 0o700 })
    return path
  }

  /** Deletes a scratch folder (never anything else). */
  remove(path: string): void {
    if (this.isScratch(path)) rmSync(path, { recursive: true, force: true })
  }

  /**
   * A folder the user chose: absolute, existing, a folder, and not the app's own data folder.
   * Returns it normalised (no trailing separator).
   */
  validate(path: string): string {
    const trimmed = path.trim()
    if (!isAbsolute(trimmed))
      throw new AppError('invalid_workspace', `The workspace folder must be an absolute path: ${trimmed}`)
    if (trimmed.includes('\0'))
      throw new AppError('invalid_workspace', 'The workspace folder contains a NUL byte')
    const folder = resolve(trimmed)
    const stats = unusableFolder(() => statSync(folder, { throwIfNoEntry: false }), folder)
    if (!stats) throw new AppError('invalid_workspace', `The folder does not exist: ${folder}`)
    if (!stats.isDirectory()) throw new AppError('invalid_workspace', `Not a folder: ${folder}`)
    const real = unusableFolder(() => realpathSync.native(folder), folder)
    const dataDir = realpathSync.native(this.deps.dataDir)
    const scratchRoot = join(dataDir, 'scratch')
    if (isInside(real, dataDir) && !(isInside(real, scratchRoot) && real !== scratchRoot)) {
      throw new AppError('invalid_workspace', `The app's data folder cannot be a workspace: ${folder}`)
    }
    return folder
  }
}

/** A folder that cannot even be looked at (name too long, no access, a symlink loop) is not a workspace. */
function unusableFolder<T>(look: () => T, folder: string): T {
  try {
    return look()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error'
    throw new AppError('invalid_workspace', `The folder cannot be used (${code}): ${folder.slice(0, 300)}`)
  }
}

/**
 * A new chat's folder: the one asked for, else the default from Settings, else (null) its own
 * scratch folder. An explicit null means scratch even when a default is set.
 */
export function newChatWorkspace(
  requested: string | null | undefined,
  defaultDir: string,
  workspaces: Pick<Workspaces, 'validate'>
): string | null {
  if (requested === null) return null
  const chosen = requested?.trim() ? requested : defaultDir
  return chosen.trim() ? workspaces.validate(chosen) : null
}
