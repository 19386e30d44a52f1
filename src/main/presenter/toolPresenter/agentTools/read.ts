import type { FileHandle } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { extname } from 'node:path'
import { z } from 'zod'
import { TOOL } from '@shared/builtinTools'
import description from './descriptions/read.md?raw'
import {
  FILESYSTEM_SERVER,
  ToolError,
  checkFiles,
  defineAgentTool,
  ok,
  pathArg,
  refuseFiles
} from './defineTool'
import { openVerified, resolveForRun } from './safeFile'

export const READ_MAX_LINES = 2_000
export const READ_MAX_CHARS = 25_000
export const READ_MAX_LINE_CHARS = 2_000
export const READ_MAX_IMAGE_BYTES = 5 * 1024 * 1024

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp'
}

const input = z.strictObject({
  path: pathArg.describe('File to read: relative to the workspace, absolute, or starting with ~'),
  offset: z.number().int().min(1).optional().describe('1-based line number to start at (default 1)'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(READ_MAX_LINES)
    .optional()
    .describe(`Number of lines to read (default and max ${READ_MAX_LINES})`)
})

export const readTool = defineAgentTool({
  name: TOOL.read,
  group: FILESYSTEM_SERVER,
  labelKey: 'settingsAgentTools.labels.read',
  readOnly: true,
  parallelSafe: true,
  description,
  input,
  aliases: { file_path: 'path' },
  refuse: (args, ctx) => refuseFiles(ctx, 'read', [args.path]),
  checkPermission: (args, ctx) => checkFiles(ctx, 'read', 'read', [args.path]),
  async execute(args, ctx) {
    // Everything is read through one handle opened on the path checked just now, so a link
    // swapped in after the permission check cannot redirect the read.
    const real = resolveForRun(ctx, 'read', 'read', args.path)
    const handle = await openVerified(real, args.path, 'read')
    try {
      const { size } = await handle.stat()
      const imageType = IMAGE_TYPES[extname(real).toLowerCase()]
      if (imageType) return await readImage(handle, args.path, imageType, size)
      if (await looksBinary(handle)) {
        throw new ToolError(
          'binary_file',
          `Cannot read ${args.path} as text: it is a binary file (${size} bytes). Use a conversion tool or a script to extract its content.`
        )
      }
      return await readLines(handle, args.path, args.offset ?? 1, args.limit ?? READ_MAX_LINES)
    } finally {
      await handle.close()
    }
  }
})

async function readImage(handle: FileHandle, shown: string, mimeType: string, size: number) {
  if (size > READ_MAX_IMAGE_BYTES) {
    throw new ToolError(
      'image_too_large',
      `${shown} is ${size} bytes; images over ${READ_MAX_IMAGE_BYTES} bytes are not read`
    )
  }
  const data = (await handle.readFile()).toString('base64')
  return ok(
    `Read image ${shown} (${size} bytes)`,
    [
      { type: 'text' as const, text: `Image ${shown} (${mimeType}, ${size} bytes):` },
      { type: 'image' as const, data, mimeType }
    ],
    { path: shown, mimeType, size }
  )
}

/** NUL bytes or many control characters in the first 8 KB mean binary. */
async function looksBinary(handle: FileHandle): Promise<boolean> {
  const buffer = Buffer.alloc(8192)
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
  if (bytesRead === 0) return false
  let control = 0
  for (let i = 0; i < bytesRead; i++) {
    const byte = buffer[i]
    if (byte === 0) return true
    if (byte < 7 || (byte > 13 && byte < 32 && byte !== 27)) control++
  }
  return control / bytesRead > 0.1
}

/** Streams only the lines asked for, so a huge log costs no more than the window read. */
async function readLines(handle: FileHandle, shown: string, offset: number, limit: number) {
  // The caller closes the handle; the stream must not.
  const stream = handle.createReadStream({ encoding: 'utf8', start: 0, autoClose: false })
  const lines = createInterface({ input: stream, crlfDelay: Infinity })
  const out: string[] = []
  let lineNumber = 0
  let chars = 0
  let cutLines = 0
  let stoppedAt: number | null = null
  let moreAfter = false
  try {
    for await (const raw of lines) {
      lineNumber++
      if (lineNumber < offset) continue
      if (out.length >= limit) {
        moreAfter = true
        break
      }
      const text =
        raw.length > READ_MAX_LINE_CHARS
          ? `${raw.slice(0, READ_MAX_LINE_CHARS)}… [line cut at ${READ_MAX_LINE_CHARS} characters]`
          : raw
      if (raw.length > READ_MAX_LINE_CHARS) cutLines++
      const formatted = `${String(lineNumber).padStart(6)}\t${text}`
      if (chars + formatted.length + 1 > READ_MAX_CHARS && out.length > 0) {
        stoppedAt = lineNumber
        moreAfter = true
        break
      }
      out.push(formatted)
      chars += formatted.length + 1
    }
  } finally {
    lines.close()
    stream.destroy()
  }
  if (lineNumber < offset && !(offset === 1 && lineNumber === 0)) {
    throw new ToolError(
      'offset_out_of_range',
      `${shown} has ${lineNumber} lines; offset ${offset} is past the end`
    )
  }
  const first = offset
  const last = offset + out.length - 1
  const notes: string[] = []
  if (out.length === 0) notes.push('(empty file)')
  if (moreAfter)
    notes.push(
      `[Showing lines ${first}-${last}. More lines follow: continue with offset=${stoppedAt ?? last + 1}.]`
    )
  if (cutLines) notes.push(`[${cutLines} long line(s) were cut.]`)
  const content = [...out, ...notes].join('\n')
  return ok(
    `Read ${shown} lines ${first}-${Math.max(first, last)}${moreAfter ? ' (more follow)' : ''}`,
    content,
    {
      path: shown,
      startLine: first,
      endLine: last,
      truncated: moreAfter,
      nextOffset: moreAfter ? (stoppedAt ?? last + 1) : undefined
    }
  )
}
