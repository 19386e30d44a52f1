import { highlightCode } from './rich/richRenderers'

/** Beyond this a file is shown as plain text: highlighting it would stall the card. */
const MAX_HIGHLIGHT_CHARS = 100_000

/** The language a file name suggests (`src/a.ts` -> ts; `Makefile` -> makefile). */
export function languageOf(path: string): string {
  const name = path.split(/[\\/]/).pop() ?? ''
  return (name.includes('.') ? name.split('.').pop()! : name).toLowerCase()
}

/**
 * Escaped HTML for a file's text, highlighted when its language is known. The grammar loads on
 * first use, like code blocks', so approval previews add nothing to the chat's first load.
 */
export function highlightFile(code: string, path: string): Promise<string> {
  if (code.length > MAX_HIGHLIGHT_CHARS) return highlightCode(code, '')
  return highlightCode(code, languageOf(path))
}
