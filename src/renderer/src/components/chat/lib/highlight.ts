import hljs from 'highlight.js/lib/common'

/** Beyond this a file is shown as plain text: highlighting it would stall the card. */
const MAX_HIGHLIGHT_CHARS = 100_000

/** The language highlight.js knows for a file name (`src/a.ts` -> typescript), or null. */
export function languageOf(path: string): string | null {
  const name = path.split(/[\\/]/).pop() ?? ''
  const ext = name.includes('.') ? name.split('.').pop()!.toLowerCase() : name.toLowerCase()
  return ext && hljs.getLanguage(ext) ? ext : null
}

/** Escaped HTML for a file's text, highlighted when its language is known. */
export function highlightFile(code: string, path: string): string {
  const language = languageOf(path)
  if (language && code.length <= MAX_HIGHLIGHT_CHARS) {
    try {
      return hljs.highlight(code, { language, ignoreIllegals: true }).value
    } catch {
      // fall through to plain escaped text
    }
  }
  return escapeHtml(code)
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}
