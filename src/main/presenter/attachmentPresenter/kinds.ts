import { extname } from 'node:path'
import { AppError } from '@shared/errors'
import type { AttachmentKind } from '@shared/types/attachments'

/** What a file is, from its first bytes first (a renamed file is still what it is), then its name. */
export interface Classified {
  kind: AttachmentKind
  mimeType: string
}

const IMAGE_SIGNATURES: Array<{ mimeType: string; test: (b: Buffer) => boolean }> = [
  { mimeType: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from('89504e470d0a1a0a', 'hex')) },
  { mimeType: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mimeType: 'image/gif', test: (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString('latin1')) },
  {
    mimeType: 'image/webp',
    test: (b) =>
      b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP'
  }
]

const ZIP_KINDS: Record<string, Classified> = {
  '.docx': {
    kind: 'docx',
    mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
  },
  '.xlsx': {
    kind: 'spreadsheet',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
  }
}

const MIME_EXTENSIONS: Record<string, string> = {
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': '.docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': '.xlsx'
}

export const SUPPORTED_TEXT =
  'images (PNG, JPEG, GIF, WebP), PDF, Word (.docx), Excel (.xlsx), CSV, and text or code files'

/**
 * Classifies an upload. Images are recognised by their signature only, so nothing that is not an
 * image is ever sent to a model as one; text is any UTF-8 without NUL bytes (code of any language).
 */
export function classify(name: string, declaredMime: string, bytes: Buffer): Classified {
  const image = IMAGE_SIGNATURES.find((s) => s.test(bytes))
  if (image) return { kind: 'image', mimeType: image.mimeType }
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return { kind: 'pdf', mimeType: 'application/pdf' }
  const ext = extname(name).toLowerCase()
  if (bytes.subarray(0, 4).equals(Buffer.from('504b0304', 'hex'))) {
    const zipKind = ZIP_KINDS[ext] ?? ZIP_KINDS[MIME_EXTENSIONS[declaredMime.toLowerCase()] ?? '']
    if (zipKind) return zipKind
    throw unsupported(name)
  }
  if (isText(bytes)) {
    if (ext === '.csv' || declaredMime.toLowerCase() === 'text/csv')
      return { kind: 'csv', mimeType: 'text/csv' }
    const mimeType = declaredMime.startsWith('text/') ? declaredMime : 'text/plain'
    return { kind: 'text', mimeType }
  }
  throw unsupported(name)
}

function unsupported(name: string): AppError {
  return new AppError('attachment_unsupported', `${name} cannot be attached: only ${SUPPORTED_TEXT} can.`)
}

/** UTF-8 that decodes cleanly and has no NUL byte (binary files nearly always do). */
function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}
