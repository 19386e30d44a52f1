import { createHash } from 'node:crypto'
import { lstat, readFile } from 'node:fs/promises'
import { AppError } from '@shared/errors'
import { KNOWLEDGE_LIMITS, type KnowledgeLocation, type KnowledgeSourceText } from '@shared/types/knowledge'
import { isRealPath } from './fileScan'
import { readDocument } from './readers'
import type { FileRow } from './store'

/** Lines (or rows) shown before and after the cited ones. */
const CONTEXT_LINES = 8
const MAX_TEXT_CHARS = 60_000

/**
 * The text at a cited place of an indexed file, read now through the same reader that indexed
 * it (so line and page numbers mean the same). The caller has checked the file is in the base.
 */
export async function readSourceText(
  baseId: string,
  file: FileRow,
  location: KnowledgeLocation
): Promise<KnowledgeSourceText> {
  const info = await lstat(file.path).catch(() => null)
  if (!info?.isFile() || !(await isRealPath(file.path)))
    throw new AppError('knowledge_file_gone', `The file is no longer there (or is now a link): ${file.path}`)
  if (info.size > KNOWLEDGE_LIMITS.maxFileBytes)
    throw new AppError('knowledge_file_too_large', `The file is now too large to show: ${file.path}`)
  const bytes = await readFile(file.path)
  const changed = createHash('sha256').update(bytes).digest('hex') !== file.hash
  const doc = await readDocument(file.path, bytes)
  const base = { baseId, path: file.path, location, changedSinceIndexed: changed }
  if (location.kind === 'page') {
    if (doc.kind !== 'pages') throw wrongKind(file.path)
    const page = doc.pages[location.page - 1]
    if (page === undefined)
      throw new AppError(
        'knowledge_location_invalid',
        `The file has ${doc.pages.length} pages, not ${location.page}`
      )
    const lines = page.split('\n')
    return {
      ...base,
      text: cap(page),
      highlightStartLine: 1,
      highlightEndLine: Math.max(1, lines.length),
      pageCount: doc.pages.length
    }
  }
  if (location.kind === 'lines') {
    if (doc.kind !== 'lines') throw wrongKind(file.path)
    const start = Math.min(location.startLine, doc.lines.length)
    const end = Math.min(Math.max(location.endLine, start), doc.lines.length)
    const from = Math.max(1, start - CONTEXT_LINES)
    const to = Math.min(doc.lines.length, end + CONTEXT_LINES)
    return {
      ...base,
      text: cap(doc.lines.slice(from - 1, to).join('\n')),
      highlightStartLine: start - from + 1,
      highlightEndLine: end - from + 1,
      pageCount: null
    }
  }
  if (doc.kind !== 'sheets') throw wrongKind(file.path)
  const sheet = doc.sheets.find((s) => s.name === location.sheet)
  if (!sheet)
    throw new AppError('knowledge_location_invalid', `The workbook has no sheet "${location.sheet}"`)
  const body = sheet.rows.slice(1)
  const first = body.findIndex((r) => r.number >= location.startRow)
  const startIndex = first === -1 ? body.length : first
  let endIndex = startIndex
  while (endIndex + 1 < body.length && body[endIndex + 1].number <= location.endRow) endIndex++
  const from = Math.max(0, startIndex - CONTEXT_LINES)
  const to = Math.min(body.length, endIndex + 1 + CONTEXT_LINES)
  const lead = [`Sheet: ${sheet.name}`, ...sheet.header.split('\n')]
  return {
    ...base,
    text: cap([...lead, ...body.slice(from, to).map((r) => r.text)].join('\n')),
    highlightStartLine: lead.length + (startIndex - from) + 1,
    highlightEndLine: lead.length + (endIndex - from) + 1,
    pageCount: null
  }
}

function wrongKind(path: string): AppError {
  return new AppError('knowledge_location_invalid', `That kind of place does not exist in ${path}`)
}

function cap(text: string): string {
  return text.length > MAX_TEXT_CHARS ? `${text.slice(0, MAX_TEXT_CHARS)}\n…` : text
}
