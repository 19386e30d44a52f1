import { basename, extname } from 'node:path'
import { AppError } from '@shared/errors'
import { extractText } from '../attachmentPresenter/extract'
import { htmlToMarkdown } from '../webPresenter/pageReader'

/**
 * A file as the chunker reads it, in the unit a citation points at: PDF pages, lines of text
 * (Markdown, code, DOCX's text, HTML as Markdown) or rows of a spreadsheet's sheets.
 */
export type FileDocument =
  | { kind: 'pages'; pages: string[] }
  | { kind: 'lines'; lines: string[] }
  | { kind: 'sheets'; sheets: { name: string; header: string; rows: { number: number; text: string }[] }[] }

type ReaderKind = 'pdf' | 'docx' | 'xlsx' | 'html' | 'text'

const TEXT_EXTENSIONS = new Set(
  (
    'md markdown mdx txt text rst adoc asciidoc org tex csv tsv log json jsonl yaml yml toml ini cfg conf ' +
    'xml svg js mjs cjs jsx ts mts cts tsx vue svelte astro py pyi rb go rs java kt kts scala groovy gradle ' +
    'c h cc cpp cxx hpp hh hxx cs fs swift m mm php pl pm lua r jl sql sh bash zsh fish ps1 bat cmd ' +
    'css scss sass less styl dart ex exs erl hrl hs ml mli clj cljs edn el vim graphql gql proto ' +
    'tf hcl nix zig v sol cmake mk'
  ).split(' ')
)
/** Files known by name rather than extension. */
const TEXT_NAMES = new Set([
  'makefile',
  'dockerfile',
  'readme',
  'license',
  'changelog',
  'gemfile',
  'rakefile'
])

/** What a file is read as, by an allowlist of extensions and names; null: not a supported file. */
export function readerKindOf(path: string): ReaderKind | null {
  const ext = extname(path).slice(1).toLowerCase()
  if (ext === 'pdf') return 'pdf'
  if (ext === 'docx') return 'docx'
  if (ext === 'xlsx') return 'xlsx'
  if (ext === 'html' || ext === 'htm' || ext === 'xhtml') return 'html'
  if (TEXT_EXTENSIONS.has(ext)) return 'text'
  if (!ext && TEXT_NAMES.has(basename(path).toLowerCase())) return 'text'
  return null
}

export const SUPPORTED_FORMATS = 'PDF, Word (.docx), Excel (.xlsx), HTML, Markdown, text and code files'

/** Reads a file's bytes into its document. A file that is not what its name says fails clearly. */
export async function readDocument(path: string, bytes: Buffer): Promise<FileDocument> {
  const kind = readerKindOf(path)
  const name = basename(path)
  if (!kind) throw new AppError('unsupported', `${name} is not a supported format (${SUPPORTED_FORMATS})`)
  try {
    switch (kind) {
      case 'pdf':
        return { kind: 'pages', pages: await pdfPages(bytes) }
      case 'docx':
        return { kind: 'lines', lines: splitLines(await extractText('docx', bytes, name)) }
      case 'xlsx':
        return { kind: 'sheets', sheets: await spreadsheetSheets(bytes) }
      case 'html':
        return {
          kind: 'lines',
          lines: splitLines(htmlToMarkdown(decodeText(bytes, name), 'file:///').markdown)
        }
      case 'text':
        return { kind: 'lines', lines: splitLines(decodeText(bytes, name)) }
    }
  } catch (error) {
    if (error instanceof AppError) throw error
    throw new AppError(
      'unreadable',
      `${name} could not be read as ${kind.toUpperCase()}: ${error instanceof Error ? error.message : String(error)}`
    )
  }
}

/** UTF-8 text; a NUL byte means a binary file under a text name, which is skipped. */
function decodeText(bytes: Buffer, name: string): string {
  if (bytes.includes(0)) throw new AppError('unsupported', `${name} looks binary (it has NUL bytes)`)
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '')
}

function splitLines(text: string): string[] {
  return text.replace(/\r\n?/g, '\n').split('\n')
}

async function pdfPages(bytes: Buffer): Promise<string[]> {
  const { extractText: extract, getDocumentProxy } = await import('unpdf')
  // verbosity 0: pdf.js would print recovery warnings for damaged files to the console.
  const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 })
  const { text } = await extract(pdf, { mergePages: false })
  return text.map((page) => page.trim())
}

type Cell = string | number | boolean | Date | null | undefined | { [key: string]: unknown }

/** Each sheet as Markdown table lines, with the sheet's own row numbers (empty rows skipped). */
async function spreadsheetSheets(
  bytes: Buffer
): Promise<Extract<FileDocument, { kind: 'sheets' }>['sheets']> {
  const ExcelJS = (await import('exceljs')).default
  const workbook = new ExcelJS.Workbook()
  await workbook.xlsx.load(new Uint8Array(bytes).buffer)
  const sheets: Extract<FileDocument, { kind: 'sheets' }>['sheets'] = []
  workbook.eachSheet((sheet) => {
    const rows: { number: number; cells: string[] }[] = []
    sheet.eachRow({ includeEmpty: false }, (row) => {
      const values = Array.isArray(row.values) ? (row.values as Cell[]).slice(1) : []
      rows.push({ number: row.number, cells: values.map(cellText) })
    })
    if (rows.length === 0) return
    const width = Math.max(...rows.map((r) => r.cells.length))
    const line = (cells: string[]) =>
      `| ${Array.from({ length: width }, (_, i) => (cells[i] ?? '').replace(/\|/g, '\\|').replace(/\s+/g, ' ')).join(' | ')} |`
    const [head, ...body] = rows
    sheets.push({
      name: sheet.name,
      header: `${line(head.cells)}\n|${' --- |'.repeat(width)}`,
      rows: [
        { number: head.number, text: line(head.cells) },
        ...body.map((r) => ({ number: r.number, text: line(r.cells) }))
      ]
    })
  })
  return sheets
}

function cellText(value: Cell): string {
  if (value === null || value === undefined) return ''
  if (value instanceof Date) return value.toISOString().replace('T00:00:00.000Z', '')
  if (typeof value === 'object') {
    const v = value as { result?: unknown; text?: unknown; richText?: Array<{ text: string }> }
    if (v.richText) return v.richText.map((r) => r.text).join('')
    if (v.result !== undefined) return String(v.result)
    if (v.text !== undefined) return String(v.text)
    return ''
  }
  return String(value)
}
