import { createHash, randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { AppError } from '@shared/errors'
import { AttachmentKind, Sha256 } from '@shared/types/attachments'

/** What the store knows about content, whatever names it was attached under. */
export const StoredMeta = z.object({
  mimeType: z.string(),
  size: z.number().int().nonnegative(),
  kind: AttachmentKind,
  textChars: z.number().int().nonnegative()
})
export type StoredMeta = z.infer<typeof StoredMeta>

/**
 * Content-addressed files in `<data>/attachments`: `<sha256>` holds the bytes, `<sha256>.json`
 * the kind and size, `<sha256>.txt` the text extracted for the model. The same content attached
 * twice (or in a forked chat) is stored once. Files are written to a temp name and renamed, so a
 * crash never leaves half a file under a hash.
 */
export class AttachmentStore {
  constructor(readonly dir: string) {}

  static hash(bytes: Buffer): string {
    return createHash('sha256').update(bytes).digest('hex')
  }

  has(sha256: string): boolean {
    return (
      Sha256.safeParse(sha256).success && existsSync(this.metaPath(sha256)) && existsSync(this.path(sha256))
    )
  }

  /** Writes content and its extract unless the hash is there already. */
  put(
    bytes: Buffer,
    meta: Omit<StoredMeta, 'size' | 'textChars'>,
    text: string
  ): { sha256: string; meta: StoredMeta } {
    const sha256 = AttachmentStore.hash(bytes)
    if (this.has(sha256)) return { sha256, meta: this.meta(sha256) }
    mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    const stored: StoredMeta = { ...meta, size: bytes.length, textChars: text.length }
    this.writeAtomic(this.path(sha256), bytes)
    if (text) this.writeAtomic(this.textPath(sha256), Buffer.from(text, 'utf8'))
    // The meta file last: its presence says the rest is complete.
    this.writeAtomic(this.metaPath(sha256), Buffer.from(JSON.stringify(stored)))
    return { sha256, meta: stored }
  }

  meta(sha256: string): StoredMeta {
    this.requireHash(sha256)
    try {
      return StoredMeta.parse(JSON.parse(readFileSync(this.metaPath(sha256), 'utf8')))
    } catch {
      throw notFound(sha256)
    }
  }

  bytes(sha256: string): Buffer {
    this.requireHash(sha256)
    try {
      return readFileSync(this.path(sha256))
    } catch {
      throw notFound(sha256)
    }
  }

  /** The extracted text ('' for images or when it is missing). */
  text(sha256: string): string {
    this.requireHash(sha256)
    try {
      return readFileSync(this.textPath(sha256), 'utf8')
    } catch {
      return ''
    }
  }

  path(sha256: string): string {
    return join(this.dir, sha256)
  }

  private metaPath(sha256: string): string {
    return join(this.dir, `${sha256}.json`)
  }

  private textPath(sha256: string): string {
    return join(this.dir, `${sha256}.txt`)
  }

  private requireHash(sha256: string): void {
    if (!Sha256.safeParse(sha256).success) throw notFound(sha256)
  }

  private writeAtomic(path: string, bytes: Buffer): void {
    const temp = `${path}.${randomUUID()}.tmp`
    writeFileSync(temp, bytes, { mode: 0o600 })
    renameSync(temp, path)
  }
}

function notFound(sha256: string): AppError {
  return new AppError(
    'attachment_not_found',
    `No stored attachment ${sha256.slice(0, 80)}: attach the file again.`
  )
}
