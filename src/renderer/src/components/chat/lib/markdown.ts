import MarkdownIt from 'markdown-it'
import hljs from 'highlight.js/lib/common'

/**
 * Markdown for model output: raw HTML is off (model text is untrusted), links open outside,
 * code is highlighted only when the fence names a language we know (auto-detection is slow).
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: false })

function highlight(code: string, language: string): string {
  const lang = language.trim().toLowerCase()
  if (lang && hljs.getLanguage(lang)) {
    try {
      return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value
    } catch {
      // fall through to plain escaped text
    }
  }
  return md.utils.escapeHtml(code)
}

// Code fences get a header with the language and a copy button; the click is handled by
// delegation in the component (no inline handlers: the CSP forbids them).
md.renderer.rules.fence = (tokens, index, _options, env) => {
  const token = tokens[index]
  const lang = token.info.trim().split(/\s+/)[0] ?? ''
  const body = highlight(token.content, lang)
  const label = md.utils.escapeHtml(typeof env?.copyLabel === 'string' ? env.copyLabel : 'Copy')
  return (
    `<div class="md-code"><div class="md-code-head"><span>${md.utils.escapeHtml(lang)}</span>` +
    `<button type="button" class="md-copy" data-copy-code aria-label="${label}">${label}</button></div>` +
    `<pre><code class="hljs">${body}</code></pre></div>`
  )
}

const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options))
md.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index].attrSet('target', '_blank')
  tokens[index].attrSet('rel', 'noopener noreferrer')
  return defaultLinkOpen(tokens, index, options, env, self)
}

export interface RenderEnv {
  copyLabel?: string
}

export function renderMarkdown(text: string, env: RenderEnv = {}): string {
  return md.render(text, { copyLabel: env.copyLabel })
}

/**
 * Splits streaming markdown into finished chunks and a live tail. A chunk ends at a blank line
 * outside a code fence, or right after a closing fence, so finished chunks never change and are
 * rendered once; only the tail is re-rendered per delta. Scanning resumes where it stopped, so
 * the cost of a delta does not grow with the length of the reply.
 */
export class MarkdownSplitter {
  /** End offsets of finished chunks. */
  readonly boundaries: number[] = []
  private scanned = 0
  private fence: string | null = null
  private text = ''

  /** Feeds the whole current text; returns false when it was not an append (caller resets). */
  update(next: string): boolean {
    if (!next.startsWith(this.text)) return false
    this.text = next
    let lineStart = this.scanned
    for (;;) {
      const newline = next.indexOf('\n', lineStart)
      if (newline < 0) break
      this.scanLine(next.slice(lineStart, newline), newline + 1)
      lineStart = newline + 1
    }
    this.scanned = lineStart
    return true
  }

  get stableEnd(): number {
    return this.boundaries[this.boundaries.length - 1] ?? 0
  }

  private scanLine(line: string, nextLineStart: number): void {
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    if (this.fence) {
      if (
        fenceMatch &&
        fenceMatch[1][0] === this.fence[0] &&
        fenceMatch[1].length >= this.fence.length &&
        !line.trim().slice(fenceMatch[1].length)
      ) {
        this.fence = null
        this.boundaries.push(nextLineStart)
      }
      return
    }
    if (fenceMatch) {
      this.fence = fenceMatch[1]
      return
    }
    if (line.trim() === '' && nextLineStart - 1 > this.stableEnd) this.boundaries.push(nextLineStart)
  }
}
