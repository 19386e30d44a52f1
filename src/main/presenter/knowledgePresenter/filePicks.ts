import { randomBytes } from 'node:crypto'
import { lstatSync, realpathSync, statSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import { AppError } from '@shared/errors'

const PICK_TTL_MS = 15 * 60_000
const MAX_OUTSTANDING = 256

interface Grant {
  real: string
  dev: number
  ino: number
  clientId: string
  expiresAt: number
}

/**
 * Files the user picked for a knowledge base, as single-use tokens (the same shape and rules as
 * folder picks, pathGrants): bound to the file's real path and identity and to the connection
 * that picked it. A route redeems one only while the path still leads to that file without a link.
 */
export class FilePicks {
  private readonly grants = new Map<string, Grant>()

  constructor(private readonly now: () => number = Date.now) {}

  issue(path: string, clientId: string): { path: string; token: string } {
    const real = pickableFile(path)
    const { dev, ino } = statSync(real)
    this.prune()
    const token = `picked:${randomBytes(24).toString('base64url')}`
    this.grants.set(token, { real, dev, ino, clientId, expiresAt: this.now() + PICK_TTL_MS })
    return { path: real, token }
  }

  has(token: string): boolean {
    return this.grants.has(token)
  }

  redeem(token: string, clientId: string): string {
    const grant = this.grants.get(token)
    if (!grant || grant.clientId !== clientId)
      throw new AppError(
        'pick_expired',
        'This file choice has expired or was already used. Choose the file again.'
      )
    this.grants.delete(token)
    if (grant.expiresAt <= this.now())
      throw new AppError('pick_expired', 'This file choice has expired. Choose the file again.')
    const info = lstatSync(grant.real, { throwIfNoEntry: false })
    if (!info?.isFile() || info.dev !== grant.dev || info.ino !== grant.ino)
      throw new AppError(
        'path_changed',
        `The file changed after it was chosen: ${grant.real}. Choose it again.`
      )
    return grant.real
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

/** An absolute path to an existing regular file; its real path (links resolved). */
export function pickableFile(path: string): string {
  const trimmed = path.trim()
  if (!trimmed || !isAbsolute(trimmed) || trimmed.includes('\0'))
    throw new AppError(
      'invalid_file',
      `Enter the absolute path of an existing file: ${trimmed.slice(0, 300)}`
    )
  let real: string
  try {
    real = realpathSync.native(trimmed)
  } catch {
    throw new AppError('invalid_file', `The file does not exist: ${trimmed.slice(0, 300)}`)
  }
  if (!statSync(real).isFile()) throw new AppError('invalid_file', `Not a file: ${trimmed.slice(0, 300)}`)
  return real
}
