import type { KnowledgeLocation } from '@shared/types/knowledge'

type Translate = (key: string, values: Record<string, unknown>) => string

/** Where a cited chunk is, in the user's language: "page 3", "lines 10–24", "Sheet1 rows 2–9". */
export function locationText(location: KnowledgeLocation, t: Translate): string {
  switch (location.kind) {
    case 'page':
      return t('knowledge.location.page', { page: location.page })
    case 'lines':
      return location.startLine === location.endLine
        ? t('knowledge.location.line', { line: location.startLine })
        : t('knowledge.location.lines', { start: location.startLine, end: location.endLine })
    case 'sheet':
      return t('knowledge.location.sheet', {
        sheet: location.sheet,
        start: location.startRow,
        end: location.endRow
      })
  }
}

/** The last part of a path (either separator): what a citation names the file by. */
export function fileName(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).pop() ?? path
}
