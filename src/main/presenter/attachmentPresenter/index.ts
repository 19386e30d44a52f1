import { readFile, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { AppError } from '@shared/errors'
import {
  ATTACHMENT_LIMITS,
  type AttachmentInput,
  type AttachmentView,
  type MessageFile
} from '@shared/types/attachments'
import type { McpResourceContents } from '@shared/types/mcp'
import { classify } from './kinds'
import { extractText } from './extract'
import { AttachmentStore, type StoredMeta } from './store'
import { checkSize, UploadSessions } from './uploads'

export { AttachmentStore } from './store'

export interface AttachmentPresenterDeps {
  /** `<data>/attachments` */
  dir: string
  /** Reads an MCP resource (for `@` mentions in the composer). */
  readResource?: (serverId: string, uri: string) => Promise<McpResourceContents[]>
  now?: () => number
}

/** What the chat loop reads to turn a message's files into model parts. */
export interface AttachmentReader {
  meta(sha256: string): StoredMeta
  bytes(sha256: string): Buffer
  text(sha256: string): string
}

/**
 * Files attached to messages: uploads (chunked), files the desktop's file dialog chose, MCP
 * resources; each is classified, its text extracted once, and stored by content hash.
 */
export class AttachmentPresenter {
  readonly store: AttachmentStore
  private readonly uploads: UploadSessions

  constructor(private readonly deps: AttachmentPresenterDeps) {
    this.store = new AttachmentStore(deps.dir)
    this.uploads = new UploadSessions(deps.now)
  }

  beginUpload(input: { name: string; mimeType: string; size: number }): { uploadId: string } {
    return { uploadId: this.uploads.begin(input) }
  }

  uploadChunk(input: { uploadId: string; index: number; data: string }): { received: number } {
    return { received: this.uploads.append(input.uploadId, input.index, input.data) }
  }

  async finishUpload(uploadId: string): Promise<AttachmentView> {
    const { name, mimeType, bytes } = this.uploads.finish(uploadId)
    return this.add(name, mimeType, bytes)
  }

  cancelUpload(uploadId: string): boolean {
    return this.uploads.cancel(uploadId)
  }

  /** Files the user chose in the desktop's own dialog (paths never come from the page). */
  async importFiles(paths: string[]): Promise<AttachmentView[]> {
    const out: AttachmentView[] = []
    for (const path of paths.slice(0, ATTACHMENT_LIMITS.maxFiles)) {
      const name = basename(path)
      const info = await stat(path).catch(() => null)
      if (!info?.isFile()) throw new AppError('attachment_unreadable', `${name} is not a readable file.`)
      checkSize(name, '', info.size)
      out.push(await this.add(name, '', await readFile(path)))
    }
    return out
  }

  /** An MCP resource as attachments: text contents as text files, blobs as the files they are. */
  async fromMcpResource(serverId: string, uri: string, name?: string): Promise<AttachmentView[]> {
    if (!this.deps.readResource) throw new AppError('not_supported', 'MCP resources are not available here.')
    const contents = await this.deps.readResource(serverId, uri)
    if (contents.length === 0) throw new AppError('attachment_unreadable', `${uri} has no contents.`)
    const out: AttachmentView[] = []
    for (const [i, content] of contents.slice(0, ATTACHMENT_LIMITS.maxFiles).entries()) {
      const fileName = resourceFileName(name, content, i)
      const bytes =
        content.blob !== undefined
          ? Buffer.from(content.blob, 'base64')
          : Buffer.from(content.text ?? '', 'utf8')
      checkSize(fileName, content.mimeType ?? '', bytes.length)
      out.push(await this.add(fileName, content.mimeType ?? '', bytes))
    }
    return out
  }

  /** Bytes the page already holds (an MCP prompt's image part). */
  addBytes(name: string, mimeType: string, bytes: Buffer): Promise<AttachmentView> {
    checkSize(name, mimeType, bytes.length)
    return this.add(name, mimeType, bytes)
  }

  /** A send's attachments as the message records them; each must be stored already. */
  resolve(inputs: readonly AttachmentInput[]): MessageFile[] {
    if (inputs.length > ATTACHMENT_LIMITS.maxFiles)
      throw new AppError(
        'attachment_limit',
        `A message can carry at most ${ATTACHMENT_LIMITS.maxFiles} files.`
      )
    return inputs.map(({ sha256, name }) => {
      if (!this.store.has(sha256))
        throw new AppError('attachment_not_found', `${name} is no longer stored: attach it again.`)
      const meta = this.store.meta(sha256)
      return { name, sha256, mimeType: meta.mimeType, size: meta.size, kind: meta.kind }
    })
  }

  reader(): AttachmentReader {
    return {
      meta: (sha256) => this.store.meta(sha256),
      bytes: (sha256) => this.store.bytes(sha256),
      text: (sha256) => this.store.text(sha256)
    }
  }

  private async add(name: string, declaredMime: string, bytes: Buffer): Promise<AttachmentView> {
    const sha256 = AttachmentStore.hash(bytes)
    if (this.store.has(sha256)) return view(sha256, name, this.store.meta(sha256))
    const { kind, mimeType } = classify(name, declaredMime, bytes)
    if (kind === 'image') checkSize(name, mimeType, bytes.length)
    const text = await extractText(kind, bytes, name)
    const stored = this.store.put(bytes, { kind, mimeType }, text)
    return view(stored.sha256, name, stored.meta)
  }
}

function view(sha256: string, name: string, meta: StoredMeta): AttachmentView {
  return { sha256, name: name.slice(0, 500), ...meta }
}

function resourceFileName(name: string | undefined, content: McpResourceContents, index: number): string {
  const base = name?.trim() || lastSegment(content.uri) || 'resource'
  return index === 0 ? base : `${base} (${index + 1})`
}

function lastSegment(uri: string): string {
  const path = uri.replace(/[?#].*$/, '').replace(/\/+$/, '')
  return decodeURIComponentSafe(path.slice(path.lastIndexOf('/') + 1))
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
