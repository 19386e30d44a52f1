import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync
} from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { z } from 'zod'
import { AppError } from '@shared/errors'
import {
  CHAT_EXPORT_FORMAT,
  CHAT_EXPORT_VERSION,
  ChatExport,
  type ChatExportFormat,
  type ChatImportResult,
  type ExportedAttachment,
  type ExportedFile,
  type ExportedMessage
} from '@shared/types/chatExport'
import type { MessageRecord, SessionRecord } from '@shared/types/session'
import type { AttachmentInput, AttachmentView, MessageFile } from '@shared/types/attachments'
import type { AttachmentReader } from '../attachmentPresenter'
import { AttachmentStore } from '../attachmentPresenter/store'
import type { SessionPresenter } from '../sessionPresenter'
import { allMigrations } from '../sqlitePresenter/migrations'
import { chatHtml, chatMarkdown } from './chatDocuments'
import type { AutoBackups, BackupFile } from './autoBackup'
import {
  DATABASE_FILE,
  PENDING_DATABASE_RESTORE,
  PENDING_RESTORE,
  backupFileName,
  inspectBackup,
  inspectDatabaseBackup,
  schemaVersionOf,
  writeBackup,
  type BackupManifest,
  type BackupSource
} from './backup'

/** Attachments larger than this are exported by name only (the JSON stays a sensible size). */
const MAX_ATTACHMENT_BYTES = 20 * 1024 * 1024

export interface DataPresenterDeps {
  sessions: Pick<SessionPresenter, 'require' | 'create' | 'messages' | 'branches'>
  /** What a whole-data backup reads, and where a restore is staged. */
  backup: Omit<BackupSource, 'schemaVersion'> & {
    /** Where backups go (Settings › Data, or `<data>/backups`). */
    folder: () => string
    nativeBinding?: string
  }
  /** The daily database copies (listed with the archives, offered for restore). */
  autoBackups?: Pick<AutoBackups, 'list'>
  /** The attachment store: exports carry its bytes, imports store them back by hash. */
  attachments?: DataAttachments
  now?: () => number
}

/** The newest database migration this app knows: a backup from a newer one is refused. */
export const LATEST_SCHEMA_VERSION = Math.max(...allMigrations.map((m) => m.version))
/** A backup moved through the bridge as base64 (download or upload); larger ones are copied by hand. */
const MAX_TRANSFER_BYTES = 256 * 1024 * 1024

/** What export and import need of the attachment store (AttachmentPresenter). */
export interface DataAttachments {
  reader(): Pick<AttachmentReader, 'meta' | 'bytes'>
  addBytes(name: string, mimeType: string, bytes: Buffer): Promise<AttachmentView>
  resolve(inputs: readonly AttachmentInput[]): MessageFile[]
}

function readAttachment(file: MessageFile, store: DataAttachments | undefined): ExportedAttachment {
  const head = { name: file.name, mimeType: file.mimeType }
  try {
    if (file.sha256 && store) {
      const reader = store.reader()
      if (reader.meta(file.sha256).size > MAX_ATTACHMENT_BYTES) return head
      return { ...head, data: reader.bytes(file.sha256).toString('base64') }
    }
    // A stored path (older records, a restored backup) is never read: it could name any file.
    return head
  } catch {
    return head
  }
}

function isSameFile(a: string, b: string): boolean {
  try {
    const [first, second] = [statSync(a), statSync(b)]
    return first.dev === second.dev && first.ino === second.ino
  } catch {
    return false
  }
}

function safeFileName(title: string): string {
  const cleaned = title
    .replace(/[\\/:*?"<>|\p{Cc}\s]+/gu, ' ')
    .trim()
    .slice(0, 80)
  return cleaned || 'chat'
}

/** Chat export (Markdown, self-contained HTML, lossless JSON) and JSON import into a new chat. */
export class DataPresenter {
  private readonly now: () => number

  constructor(private readonly deps: DataPresenterDeps) {
    this.now = deps.now ?? Date.now
  }

  /** What the chat shows, oldest first: the chosen variants, without deleted messages. */
  private allMessages(sessionId: string): MessageRecord[] {
    return this.deps.sessions.branches.visible(sessionId)
  }

  snapshot(sessionId: string): ChatExport {
    const session: SessionRecord = this.deps.sessions.require(sessionId)
    const messages = this.allMessages(sessionId).map((m): ExportedMessage => ({
      role: m.role,
      status: m.status,
      content: m.content,
      blocks: m.blocks,
      metadata: m.metadata,
      attachments: (m.content?.files ?? []).map((file) => readAttachment(file, this.deps.attachments)),
      createdAt: m.createdAt
    }))
    return {
      format: CHAT_EXPORT_FORMAT,
      version: CHAT_EXPORT_VERSION,
      exportedAt: this.now(),
      chat: {
        title: session.title,
        providerId: session.providerId,
        modelId: session.modelId,
        createdAt: session.createdAt
      },
      messages
    }
  }

  exportChat(sessionId: string, format: ChatExportFormat): ExportedFile {
    const doc = this.snapshot(sessionId)
    const name = safeFileName(doc.chat.title)
    switch (format) {
      case 'markdown':
        return { fileName: `${name}.md`, mimeType: 'text/markdown', content: chatMarkdown(doc) }
      case 'html':
        return { fileName: `${name}.html`, mimeType: 'text/html', content: chatHtml(doc) }
      case 'json':
        return {
          fileName: `${name}.json`,
          mimeType: 'application/json',
          content: JSON.stringify(doc, null, 2)
        }
    }
  }

  /**
   * A JSON export back into a NEW chat: the same messages and blocks, attachments stored again
   * from the bytes the file carries. Messages still open at export time come back finished
   * (`cancelled`). `notes` names each attachment that came back by name only, and why.
   * Exports of older builds listed replaced prompts and answers too: a message following one of
   * its own role comes back as a variant of it (the later one shown), so the chat reads as it
   * did and the next request never carries two answers (or prompts) in a row.
   */
  async importChat(json: string): Promise<ChatImportResult> {
    const doc = this.parse(json)
    const notes: string[] = []
    const session = this.deps.sessions.create({
      title: doc.chat.title.slice(0, 200),
      providerId: doc.chat.providerId ?? null,
      modelId: doc.chat.modelId ?? null
    })
    // The last message shown, and the parent of each message (for a replaced one's variant).
    let last: { id: string; role: 'user' | 'assistant'; parentId: string | null } | null = null
    const place = (role: 'user' | 'assistant') => ({
      parentId: last && last.role === role ? last.parentId : (last?.id ?? null)
    })
    for (const message of doc.messages) {
      const placement = place(message.role)
      if (message.role === 'user') {
        const content = message.content ?? { text: '', files: [], links: [] }
        const files = await this.restoreAttachments(
          session.workspaceDir,
          message.attachments,
          content.files,
          notes
        )
        const created = this.deps.sessions.messages.appendUserMessage(
          session.id,
          { ...content, files },
          placement
        )
        last = { id: created.id, role: 'user', ...placement }
        continue
      }
      const created = this.deps.sessions.messages.createAssistantMessage(session.id, placement)
      last = { id: created.id, role: 'assistant', ...placement }
      const status = message.status === 'sent' || message.status === 'error' ? message.status : 'cancelled'
      this.deps.sessions.messages.finalizeAssistantMessage(created.id, {
        status,
        blocks: message.blocks,
        metadata: message.metadata
      })
    }
    return { session: this.deps.sessions.require(session.id), notes }
  }

  /** Writes a whole-data backup into the backup folder and says where it is. */
  backup(options: { includeSecrets: boolean }): { path: string; bytes: number; manifest: BackupManifest } {
    const { db } = this.deps.backup
    const dir = this.deps.backup.folder()
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const path = join(dir, backupFileName(this.now()))
    const manifest = writeBackup({ ...this.deps.backup, schemaVersion: schemaVersionOf(db) }, path, {
      includeSecrets: options.includeSecrets,
      now: this.now()
    })
    return { path, bytes: statSync(path).size, manifest }
  }

  /**
   * Checks a backup (a clear error for a newer schema or another file) and stages it: the data
   * is replaced at the next start, before the database opens. The UI asked the user first.
   */
  stageRestore(archive: string): { manifest: BackupManifest } {
    if (!existsSync(archive)) throw new AppError('not_found', `No backup at ${archive}`)
    const { dataDir } = this.deps.backup
    if (isSameFile(archive, join(dataDir, DATABASE_FILE)))
      throw new AppError(
        'invalid_backup',
        'This file is not a readable backup: it is the database the app is using now'
      )
    if (archive.endsWith('.db')) return this.stageDatabaseRestore(archive)
    const manifest = inspectBackup(archive, dataDir, LATEST_SCHEMA_VERSION)
    copyFileSync(archive, join(dataDir, PENDING_RESTORE))
    return { manifest }
  }

  /**
   * A backup's bytes, for a browser to save as a download. Only a file the backup list shows
   * (an archive or a daily copy in the backup folder) is read: never any other path.
   */
  readBackup(path: string): { name: string; base64: string; bytes: number } {
    const wanted = this.listedBackup(path)
    const listed = this.listBackups().backups.find((b) => resolve(b.path) === wanted)!
    if (listed.bytes > MAX_TRANSFER_BYTES)
      throw new AppError('too_large', `This backup is too large to download here; copy it from ${wanted}`)
    const bytes = readFileSync(wanted)
    return { name: basename(wanted), base64: bytes.toString('base64'), bytes: bytes.length }
  }

  /**
   * A backup the user uploaded from a browser: kept in the backup folder and checked now, so a
   * wrong file is refused before anyone is asked to replace their data. `stageRestore` of the
   * path it returns stages it.
   */
  receiveBackup(
    fileName: string,
    base64: string
  ): { path: string; kind: 'archive' | 'database'; manifest: BackupManifest | null } {
    const kind = /\.(tar\.gz|tgz)$/i.test(fileName) ? 'archive' : /\.db$/i.test(fileName) ? 'database' : null
    if (!kind)
      throw new AppError(
        'invalid_backup',
        'Choose a backup made by the app: a .tar.gz archive or a daily database copy (.db)'
      )
    const bytes = decodeBase64(base64)
    if (!bytes || bytes.length === 0) throw new AppError('invalid_backup', 'The uploaded file is empty')
    const dir = this.deps.backup.folder()
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const stamp = new Date(this.now()).toISOString().slice(0, 19).replace(/[:T]/g, '-')
    const path = join(
      dir,
      kind === 'archive' ? `deepchat-backup-upload-${stamp}.tar.gz` : `deepchat-upload-${stamp}.db`
    )
    writeFileSync(path, bytes, { mode: 0o600 })
    try {
      if (kind === 'archive') {
        return { path, kind, manifest: inspectBackup(path, this.deps.backup.dataDir, LATEST_SCHEMA_VERSION) }
      }
      inspectDatabaseBackup(path, LATEST_SCHEMA_VERSION, this.deps.backup.nativeBinding)
      return { path, kind, manifest: null }
    } catch (error) {
      rmSync(path, { force: true })
      throw error
    }
  }

  /**
   * A path the page names as a backup, if the backup list shows it (an archive, a daily copy or an
   * upload in the backup folder) and it is a plain file there, not a link; else `not_found`.
   */
  listedBackup(path: string): string {
    const wanted = resolve(path)
    const listed = this.listBackups().backups.some((b) => resolve(b.path) === wanted)
    let plainFile: boolean
    try {
      plainFile = listed && lstatSync(wanted).isFile()
    } catch {
      plainFile = false // removed meanwhile
    }
    if (!plainFile)
      throw new AppError(
        'not_found',
        'Only a backup in the backup list (the backup folder, or a file you uploaded) can be used'
      )
    return wanted
  }

  /** The backup folder and what is in it, newest first. */
  listBackups(): { folder: string; backups: BackupFile[] } {
    return { folder: this.deps.backup.folder(), backups: this.deps.autoBackups?.list() ?? [] }
  }

  /** A daily database copy: checked, then put in place at the next start (chat folders stay as they are). */
  private stageDatabaseRestore(file: string): { manifest: BackupManifest } {
    const { dataDir, nativeBinding } = this.deps.backup
    const schemaVersion = inspectDatabaseBackup(file, LATEST_SCHEMA_VERSION, nativeBinding)
    copyFileSync(file, join(dataDir, PENDING_DATABASE_RESTORE))
    chmodSync(join(dataDir, PENDING_DATABASE_RESTORE), 0o600)
    const manifest: BackupManifest = {
      format: 'deepchat-desk.backup',
      version: 1,
      schemaVersion,
      createdAt: statSync(file).mtimeMs,
      appVersion: this.deps.backup.appVersion,
      includesSecrets: false,
      folders: []
    }
    return { manifest }
  }

  private parse(json: string): ChatExport {
    let raw: unknown
    try {
      raw = JSON.parse(json)
    } catch {
      throw new AppError('invalid_import', 'This file is not a chat export (not JSON)')
    }
    const head = z.object({ format: z.string(), version: z.number() }).safeParse(raw)
    if (!head.success || head.data.format !== CHAT_EXPORT_FORMAT)
      throw new AppError('invalid_import', 'This file is not a DeepChat Desk chat export')
    if (head.data.version > CHAT_EXPORT_VERSION)
      throw new AppError(
        'import_too_new',
        `This export was made by a newer version (format ${head.data.version}); update the app to import it`
      )
    const parsed = ChatExport.safeParse(raw)
    if (!parsed.success) throw new AppError('invalid_import', z.prettifyError(parsed.error))
    return parsed.data
  }

  /**
   * Attachments come back only from the bytes the file carries, never from a path or a hash
   * it names (an imported message could otherwise point the next turn at any local file, or at
   * another chat's stored attachment). Bytes whose SHA-256 differs from the hash the message
   * names are dropped. A dropped or byte-less attachment keeps its name only, with a note.
   */
  private async restoreAttachments(
    workspaceDir: string,
    attachments: readonly ExportedAttachment[],
    files: readonly MessageFile[],
    notes: string[]
  ): Promise<MessageFile[]> {
    const restored: MessageFile[] = []
    for (const [index, file] of files.entries()) {
      const nameOnly: MessageFile = { name: file.name, ...(file.mimeType ? { mimeType: file.mimeType } : {}) }
      const bytes = decodeBase64(attachments[index]?.data)
      if (!bytes) {
        notes.push(`${file.name}: the file carries no content for it, so only its name was imported.`)
        restored.push(nameOnly)
        continue
      }
      if (file.sha256 && AttachmentStore.hash(bytes) !== file.sha256) {
        notes.push(`${file.name}: its content does not match its SHA-256, so it was dropped.`)
        restored.push(nameOnly)
        continue
      }
      const store = this.deps.attachments
      if (store) {
        const view = await store.addBytes(file.name, file.mimeType ?? 'application/octet-stream', bytes)
        restored.push(...store.resolve([{ sha256: view.sha256, name: file.name }]))
        continue
      }
      const dir = join(workspaceDir, 'imported-attachments')
      mkdirSync(dir, { recursive: true })
      const path = join(dir, `${index}-${basename(file.name) || 'file'}`)
      writeFileSync(path, bytes)
      restored.push({ ...nameOnly, path })
    }
    return restored
  }
}

/** Strict base64 (what export writes): anything else is not content. */
function decodeBase64(data: string | undefined): Buffer | null {
  if (data === undefined || !/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0) return null
  return Buffer.from(data, 'base64')
}
