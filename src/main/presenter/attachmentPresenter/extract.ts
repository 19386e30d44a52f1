import { Readable } from 'node:stream'
import { AppError } from '@shared/errors'
import type { AttachmentKind } from '@shared/types/attachments'

/** Text kept per attachment; the model gets less when its context is smaller (see attachmentText). */
export const MAX_EXTRACT_CHARS = 2_000_000

/**
 * The text a model reads for an attachment: PDF text page by page (unpdf), Word as plain text
 * (mammoth), spreadsheets and CSV as Markdown tables (exceljs), text as it is. The readers are
 * loaded on first use, so a start-up that attaches nothing never pays for them.
 */
export async function extractText(kind: AttachmentKind, bytes: Buffer, name: string): Promise<string> {
  try {
    switch (kind) {
      case 'image':
        return ''
      case 'text':
        return cap(bytes.toString('utf8').replace(/^\uFEFF/, ''))
      case 'pdf':
        return cap(await pdfText(bytes))
      case 'docx':
        return cap(await docxText(bytes))
      case 'spreadsheet':
        return cap(await spreadsheetText(bytes))
      case 'csv':
        return cap(await csvText(bytes))
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    throw new AppError(
      'attachment_unreadable',
      `${name} could not be read as ${kind.toUpperCase()}: ${error instanceof Error ? error.message : String(error)}`
    )
  }
}

async function pdfText(bytes: Buffer): Promise<string> {
  const { extractText: extract, getDocumentProxy } = await import('unpdf')
  // verbosity 0: pdf.js would print recovery warnings for damaged files to the console.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 })
  const { text } = await extract(pdf, { mergePages: false })
  return text.map((page, i) => `[Page ${i + 1}]\n${page.trim()}`).join('\n\n')
}

async function docxText(bytes: Buffer): Promise<string> {
  const mammoth = (await import('mammoth')).default
  const result = await mammoth.extractRawText({ buffer: bytes })
  return result.value.replace(/\n{3,}/g, '\n\n').trim()
}

type Cell = string | number | boolean | Date | null | undefined | { [key: string]: unknown }

async function spreadsheetText(bytes: Buffer): Promise<string> {
  const ExcelJS = (await import('exceljs')).default
  const workbook = new ExcelJS.Workbook()
  // A plain ArrayBuffer copy: exceljs's own Buffer type predates Node's generic one.
  await workbook.xlsx.load(new Uint8Array(bytes).buffer)
  const sheets: string[] = []
  workbook.eachSheet((sheet) => {
    const rows: string[][] = []
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const values = Array.isArray(row.values) ? (row.values as Cell[]).slice(1) : []
      rows.push(values.map(cellText))
    })
    sheets.push(`## Sheet: ${sheet.name}\n\n${markdownTable(rows)}`)
  })
  return sheets.join('\n\n')
}

async function csvText(bytes: Buffer): Promise<string> {
  const ExcelJS = (await import('exceljs')).default
  const workbook = new ExcelJS.Workbook()
  // Every cell stays the text it was: no date or number guessing.
  const sheet = await workbook.csv.read(Readable.from([bytes.toString('utf8').replace(/^\uFEFF/, '')]), {
    map: (value: string) => value
  })
  const rows: string[][] = []
  sheet.eachRow({ includeEmpty: false }, (row) => {
    const values = Array.isArray(row.values) ? (row.values as Cell[]).slice(1) : []
    rows.push(values.map(cellText))
  })
  return markdownTable(rows)
}

function cellText(value: Cell): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return value.toISOString().replace('T00:00:00.000Z', '')
  if (typeof value === 'object') {
    // Formulas, rich text and hyperlinks: what the cell shows.
    const v = value as { result?: unknown; text?: unknown; richText?: Array<{ text: string }> }
    if (v.richText) return v.richText.map((r) => r.text).join('')
    if (v.result !== undefined) return String(v.result)
    if (v.text !== undefined) return String(v.text)
    return JSON.stringify(value)
  }
  return String(value)
}

/** The first row is the header; ragged rows are padded so the table stays a table. */
export function markdownTable(rows: string[][]): string {
  if (rows.length === 0) return '(empty)'
  const width = Math.max(...rows.map((r) => r.length))
  const line = (cells: string[]) =>
    `| ${Array.from({ length: width }, (_, i) => escapeCell(cells[i] ?? '')).join(' | ')} |`
  const [header, ...body] = rows
  return [line(header), `|${' --- |'.repeat(width)}`, ...body.map(line)].join('\n')
}

function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
}

function cap(text: string): string {
  return text.length <= MAX_EXTRACT_CHARS
    ? text
    : `${text.slice(0, MAX_EXTRACT_CHARS)}\n[… the file is longer; the rest was not extracted]`
}
