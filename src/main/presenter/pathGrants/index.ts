import { randomBytes } from 'node:crypto'
import { lstatSync, realpathSync, statSync } from 'node:fs'
import { isAbsolute, resolve } from 'node:path'
import { AppError } from '@shared/errors'
import { isPickToken } from '@shared/types/pickedPath'

/** How long a pick stays redeemable: long enough to type the first message of a new chat. */
const PICK_TTL_MS = 15 * 60_000
/** Picks nobody redeemed are dropped, oldest first, beyond this many. */
const MAX_OUTSTANDING = 64

interface Grant {
  real: string
  dev: number
  ino: number
  clientId: string
  expiresAt: number
}

export interface PathGrantsDeps {
  /** Folders main already holds as the user's choice: the default workspace, chats' workspaces. */
  knownFolders: () => Iterable<string>
  now?: () => number
  ttlMs?: number
}

/**
 * Only folders the user picked reach the routes that take one (workspace, default workspace,
 * backup folder, a skill folder). When main's picker answers (the desktop dialog, or the headless
 * host's typed-folder picker) it issues a token bound to the folder's real path and identity and
 * to the connection that picked it; a route redeems it once, within minutes, and only while the
 * path still leads to that same folder without a link. A path the page merely names is accepted
 * only when main already knows it as one the user chose; anything else is refused, whatever it is.
 */
export class PathGrants {
  private readonly grants = new Map<string, Grant>()
  private readonly now: () => number
  private readonly ttlMs: number

  constructor(private readonly deps: PathGrantsDeps) {
    this.now = deps.now ?? Date.now
    this.ttlMs = deps.ttlMs ?? PICK_TTL_MS
  }

  /** The folder the picker returned, checked now, and a token only `clientId` can use, once. */
  issue(path: string, clientId: string): { path: string; token: string } {
    const real = pickableFolder(path)
    const { dev, ino } = statSync(real)
    this.prune()
    const token = `picked:${randomBytes(24).toString('base64url')}`
    this.grants.set(token, { real, dev, ino, clientId, expiresAt: this.now() + this.ttlMs })
    return { path: real, token }
  }

  /** The real path a token was issued for; the token is spent. */
  redeem(token: string, clientId: string): string {
    const grant = this.grants.get(token)
    // Another connection's token is unknown here, and stays usable by its own connection.
    if (!grant || grant.clientId !== clientId) throw expired()
    this.grants.delete(token)
    if (grant.expiresAt <= this.now()) throw expired()
    if (!sameFolder(grant))
      throw new AppError(
        'path_changed',
        `The folder changed after it was chosen (it is gone or now leads elsewhere): ${grant.real}. Choose it again.`
      )
    return grant.real
  }

  /**
   * A folder named by the page: a pick token, or (unless `known` is false) a folder main already
   * knows as the user's choice. Anything else is refused with `path_not_picked`.
   */
  folderFrom(value: string, clientId: string, options: { known?: boolean } = {}): string {
    const trimmed = value.trim()
    if (isPickToken(trimmed)) return this.redeem(trimmed, clientId)
    if (options.known !== false && this.isKnown(trimmed)) return resolve(trimmed)
    throw new AppError(
      'path_not_picked',
      `Choose the folder in the folder picker: "${trimmed.slice(0, 300)}" was not picked there`
    )
  }

  /** The path, as written (`..` folded, no link followed), is one main already holds. */
  isKnown(path: string): boolean {
    if (!isAbsolute(path) || path.includes('\0')) return false
    const wanted = resolve(path)
    for (const known of this.deps.knownFolders()) if (known && resolve(known) === wanted) return true
    return false
  }

  private prune(): void {
    const now = this.now()
    for (const [token, grant] of this.grants) if (grant.expiresAt <= now) this.grants.delete(token)
    for (const token of this.grants.keys()) {
      if (this.grants.size < MAX_OUTSTANDING) break
      this.grants.delete(token)
    }
  }
}

function expired(): AppError {
  return new AppError(
    'pick_expired',
    'This folder choice has expired or was already used. Choose the folder again.'
  )
}

/** Still the folder that was picked: the same inode at the same real path, not a link. */
function sameFolder(grant: Grant): boolean {
  try {
    const stats = lstatSync(grant.real)
    return (
      stats.isDirectory() &&
      stats.dev === grant.dev &&
      stats.ino === grant.ino &&
      realpathSync.native(grant.real) === grant.real
    )
  } catch {
    return false
  }
}

/** An absolute path to an existing folder; its real path (`..` and links resolved). */
export function pickableFolder(path: string): string {
  const trimmed = path.trim()
  if (!trimmed || !isAbsolute(trimmed) || trimmed.includes('\0'))
    throw new AppError(
      'invalid_folder',
      `Enter the absolute path of an existing folder: ${trimmed.slice(0, 300)}`
    )
  let real: string
  try {
    real = realpathSync.native(trimmed)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error'
    throw new AppError(
      'invalid_folder',
      code === 'ENOENT' || code === 'ENOTDIR'
        ? `The folder does not exist: ${trimmed.slice(0, 300)}`
        : `The folder cannot be used (${code}): ${trimmed.slice(0, 300)}`
    )
  }
  if (!statSync(real).isDirectory())
    throw new AppError('invalid_folder', `Not a folder: ${trimmed.slice(0, 300)}`)
  return real
}
