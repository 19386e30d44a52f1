import { z } from 'zod'
import { defineRoute } from '../define'
import { ChatExportFormat, ChatImportResult, ExportedFile } from '../../types/chatExport'

/** One chat as a file: Markdown, self-contained HTML or lossless JSON (which `data.importChat` reads back). */
export const dataExportChat = defineRoute({
  name: 'data.exportChat',
  input: z.object({ sessionId: z.string().min(1), format: ChatExportFormat }).strict(),
  output: ExportedFile
})

/** A JSON chat export back into a new chat; attachments only from the bytes it carries. */
export const dataImportChat = defineRoute({
  name: 'data.importChat',
  input: z
    .object({
      content: z
        .string()
        .min(1)
        .max(512 * 1024 * 1024)
    })
    .strict(),
  output: ChatImportResult
})

const BackupManifest = z.object({
  schemaVersion: z.number(),
  createdAt: z.number(),
  appVersion: z.string(),
  includesSecrets: z.boolean(),
  folders: z.array(z.string())
})

/** A whole-data backup written into the backup folder (Settings › Data; secrets only when asked for). */
export const dataBackup = defineRoute({
  name: 'data.backup',
  input: z.object({ includeSecrets: z.boolean() }).strict(),
  output: z.object({ path: z.string(), bytes: z.number(), manifest: BackupManifest })
})

/**
 * Checks a backup and stages it: the data is replaced when the app next starts. An archive
 * replaces all data; a daily database copy (`.db`) only the database (the old one is kept).
 */
export const dataRestoreBackup = defineRoute({
  name: 'data.restoreBackup',
  input: z.object({ path: z.string().min(1).max(4096) }).strict(),
  /** `restarting`: the desktop app restarts itself; otherwise the user restarts the host. */
  output: z.object({ manifest: BackupManifest, restarting: z.boolean() })
})

/** A listed backup's bytes, for the browser to save as a download (the host's folder is not the user's). */
export const dataDownloadBackup = defineRoute({
  name: 'data.downloadBackup',
  input: z.object({ path: z.string().min(1).max(4096) }).strict(),
  output: z.object({ name: z.string(), base64: z.string(), bytes: z.number() })
})

/**
 * A backup file uploaded from the browser: kept in the backup folder and checked before the
 * user is asked to replace their data; `data.restoreBackup` of its `path` stages it.
 */
export const dataUploadBackup = defineRoute({
  name: 'data.uploadBackup',
  input: z
    .object({
      fileName: z.string().min(1).max(255),
      base64: z
        .string()
        .min(1)
        .max(Math.ceil((256 * 1024 * 1024) / 3) * 4)
    })
    .strict(),
  output: z.object({
    path: z.string(),
    kind: z.enum(['archive', 'database']),
    manifest: BackupManifest.nullable()
  })
})

/** The backup folder and the backups in it, newest first: daily database copies and whole-data archives. */
export const dataListBackups = defineRoute({
  name: 'data.listBackups',
  input: z.object({}).strict(),
  output: z.object({
    folder: z.string(),
    backups: z.array(
      z.object({
        path: z.string(),
        kind: z.enum(['database', 'archive']),
        createdAt: z.number(),
        bytes: z.number()
      })
    )
  })
})
