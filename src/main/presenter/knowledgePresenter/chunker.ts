import type { KnowledgeLocation } from '@shared/types/knowledge'
import type { FileDocument } from './readers'

/** About this many characters per chunk (a few hundred tokens: one idea, cheap to embed). */
export const CHUNK_CHARS = 1200
/** Neighbouring chunks share about this much, so an answer on a boundary is whole in one of them. */
export const OVERLAP_CHARS = 200

export interface Chunk {
  text: string
  location: KnowledgeLocation
}

/** A document's chunks, in file order; the same document always gives the same chunks. */
export function chunkDocument(doc: FileDocument): Chunk[] {
  switch (doc.kind) {
    case 'pages':
      return doc.pages.flatMap((page, i) =>
        splitText(page).map((text) => ({ text, location: { kind: 'page' as const, page: i + 1 } }))
      )
    case 'lines':
      return chunkLines(doc.lines)
    case 'sheets':
      return doc.sheets.flatMap((sheet) => chunkRows(sheet))
  }
}

/** Runs of lines of about CHUNK_CHARS; the next run starts OVERLAP_CHARS of lines before the end. */
function chunkLines(lines: string[]): Chunk[] {
  const chunks: Chunk[] = []
  let start = 0
  while (start < lines.length) {
    // Blank lines at the start carry nothing.
    while (start < lines.length && !lines[start].trim()) start++
    if (start >= lines.length) break
    let end = start
    let size = 0
    while (end < lines.length && (end === start || size + lines[end].length + 1 <= CHUNK_CHARS)) {
      size += lines[end].length + 1
      end++
    }
    const text = lines.slice(start, end).join('\n').trim()
    const location = { kind: 'lines' as const, startLine: start + 1, endLine: end }
    // One very long line (minified code, a paragraph without breaks): split it, same location.
    for (const piece of text.length > CHUNK_CHARS ? splitText(text) : [text])
      if (piece) chunks.push({ text: piece, location })
    if (end >= lines.length) break
    // Step back over the last lines (at most OVERLAP_CHARS of them) so the runs overlap.
    let next = end
    let overlap = 0
    while (next - 1 > start && overlap + lines[next - 1].length + 1 <= OVERLAP_CHARS) {
      overlap += lines[next - 1].length + 1
      next--
    }
    start = next
  }
  return chunks
}

/** Rows of a sheet, each chunk led by the sheet's name and header row so it reads on its own. */
function chunkRows(sheet: Extract<FileDocument, { kind: 'sheets' }>['sheets'][number]): Chunk[] {
  const chunks: Chunk[] = []
  const lead = `Sheet: ${sheet.name}\n${sheet.header}\n`
  const body = sheet.rows.slice(1)
  if (body.length === 0)
    return [
      {
        text: lead.trim(),
        location: {
          kind: 'sheet',
          sheet: sheet.name,
          startRow: sheet.rows[0].number,
          endRow: sheet.rows[0].number
        }
      }
    ]
  let i = 0
  while (i < body.length) {
    let size = lead.length
    let j = i
    while (j < body.length && (j === i || size + body[j].text.length + 1 <= CHUNK_CHARS)) {
      size += body[j].text.length + 1
      j++
    }
    const rows = body.slice(i, j)
    chunks.push({
      text: (lead + rows.map((r) => r.text).join('\n')).slice(0, CHUNK_CHARS * 2),
      location: {
        kind: 'sheet',
        sheet: sheet.name,
        startRow: rows[0].number,
        endRow: rows[rows.length - 1].number
      }
    })
    i = j
  }
  return chunks
}

/** Text cut into pieces of about CHUNK_CHARS at whitespace, overlapping by about OVERLAP_CHARS. */
export function splitText(text: string): string[] {
  const clean = text.trim()
  if (!clean) return []
  if (clean.length <= CHUNK_CHARS) return [clean]
  const pieces: string[] = []
  let start = 0
  while (start < clean.length) {
    let end = Math.min(start + CHUNK_CHARS, clean.length)
    if (end < clean.length) {
      const space = clean.lastIndexOf(' ', end)
      const newline = clean.lastIndexOf('\n', end)
      const cut = Math.max(space, newline)
      if (cut > start + CHUNK_CHARS / 2) end = cut
    }
    pieces.push(clean.slice(start, end).trim())
    if (end >= clean.length) break
    let next = end - OVERLAP_CHARS
    const space = clean.indexOf(' ', next)
    if (space !== -1 && space < end) next = space + 1
    start = Math.max(next, start + 1)
  }
  return pieces.filter(Boolean)
}
