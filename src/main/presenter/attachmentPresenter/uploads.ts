import { randomUUID } from 'node:crypto'
import { AppError } from '@shared/errors'
import { ATTACHMENT_LIMITS } from '@shared/types/attachments'

interface Upload {
  name: string
  mimeType: string
  size: number
  chunks: Buffer[]
  received: number
  touchedAt: number
}

/** Uploads left unfinished this long are dropped (a closed tab, a lost connection). */
const STALE_MS = 10 * 60_000
const MAX_OPEN = 20

/**
 * Uploads in chunks, so a file larger than one bridge frame (the host caps frames at 8 MiB)
 * still arrives. Chunks come in order; the declared size is checked before any byte is kept.
 */
export class UploadSessions {
  private readonly open = new Map<string, Upload>()

  constructor(private readonly now: () => number = Date.now) {}

  begin(input: { name: string; mimeType: string; size: number }): string {
    checkSize(input.name, input.mimeType, input.size)
    this.dropStale()
    if (this.open.size >= MAX_OPEN)
      throw new AppError('attachment_limit', 'Too many uploads at once: wait for the others to finish.')
    const id = randomUUID()
    this.open.set(id, { ...input, chunks: [], received: 0, touchedAt: this.now() })
    return id
  }

  append(uploadId: string, index: number, base64: string): number {
    const upload = this.require(uploadId)
    if (index !== upload.chunks.length)
      throw new AppError(
        'invalid_input',
        `Chunk ${index} arrived out of order (expected ${upload.chunks.length}).`
      )
    const bytes = Buffer.from(base64, 'base64')
    if (upload.received + bytes.length > upload.size) {
      this.open.delete(uploadId)
      throw new AppError('invalid_input', `${upload.name} is larger than its declared size.`)
    }
    upload.chunks.push(bytes)
    upload.received += bytes.length
    upload.touchedAt = this.now()
    return upload.received
  }

  /** The whole file; the upload is gone afterwards either way. */
  finish(uploadId: string): { name: string; mimeType: string; bytes: Buffer } {
    const upload = this.require(uploadId)
    this.open.delete(uploadId)
    if (upload.received !== upload.size)
      throw new AppError(
        'upload_incomplete',
        `${upload.name} arrived incomplete (${upload.received} of ${upload.size} bytes): attach it again.`
      )
    return { name: upload.name, mimeType: upload.mimeType, bytes: Buffer.concat(upload.chunks) }
  }

  cancel(uploadId: string): boolean {
    return this.open.delete(uploadId)
  }

  private require(uploadId: string): Upload {
    const upload = this.open.get(uploadId)
    if (!upload)
      throw new AppError('upload_not_found', 'This upload is no longer open: attach the file again.')
    return upload
  }

  private dropStale(): void {
    const cutoff = this.now() - STALE_MS
    for (const [id, upload] of this.open) if (upload.touchedAt < cutoff) this.open.delete(id)
  }
}

/** Size limits with the numbers in the message, checked before a byte is read. */
export function checkSize(name: string, mimeType: string, size: number): void {
  const limit = mimeType.startsWith('image/')
    ? ATTACHMENT_LIMITS.maxImageBytes
    : ATTACHMENT_LIMITS.maxFileBytes
  if (size > limit)
    throw new AppError(
      'attachment_too_large',
      `${name} is ${megabytes(size)}; attachments can be at most ${megabytes(limit)}${mimeType.startsWith('image/') ? ' for images' : ''}.`
    )
  if (size === 0) throw new AppError('attachment_unreadable', `${name} is empty.`)
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`
}
