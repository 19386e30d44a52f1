import { z } from 'zod'
import { defineRoute } from '../define'
import { ChatExportFormat, ExportedFile } from '../../types/chatExport'
import { SessionRecord } from '../../types/session'

/** One chat as a file: Markdown, self-contained HTML or lossless JSON (which `data.importChat` reads back). */
export const dataExportChat = defineRoute({
  name: 'data.exportChat',
  input: z.object({ sessionId: z.string().min(1), format: ChatExportFormat }).strict(),
  output: ExportedFile
})

/** A JSON chat export back into a new chat. */
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
  output: z.object({ session: SessionRecord })
})
