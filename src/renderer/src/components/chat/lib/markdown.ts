import MarkdownIt from 'markdown-it'
import { mathPlugin } from './rich/mathRule'
import { codeHtml, diagramHtml, mathHtml } from './rich/richRenderers'

/**
 * Markdown for model output: raw HTML is off (model text is untrusted), links open outside.
 * Code, math and diagrams render through `rich/` (their renderers load on first use); code is
 * highlighted only when the fence names a language we know (auto-detection is slow).
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: false })
mathPlugin(md, mathHtml)
const esc = (text: string) => md.utils.escapeHtml(text)

export interface RenderEnv {
  copyLabel?: string
  previewLabel?: string
}

/** HTML and SVG fences can be previewed in a sandboxed frame (see artifactPreview.ts). */
export function artifactKind(lang: string, code: string): 'html' | 'svg' | null {
  const name = lang.toLowerCase()
  if (name === 'svg' || ((name === 'xml' || name === '') && /^\s*<svg[\s>]/i.test(code))) return 'svg'
  if (name === 'html' || name === 'htm') return 'html'
  return null
}

function codeHead(lang: string, env: RenderEnv, extra = ''): string {
  const copy = esc(env.copyLabel ?? 'Copy')
  return (
    `<div class="md-code-head"><span>${esc(lang)}</span><span class="md-code-actions">${extra}` +
    `<button type="button" class="md-copy" data-copy-code aria-label="${copy}">${copy}</button></span></div>`
  )
}

// Code fences get a header with the language and a copy button; clicks are handled by
// delegation in the component (no inline handlers: the CSP forbids them).
md.renderer.rules.fence = (tokens, index, _options, rawEnv) => {
  const env = (rawEnv ?? {}) as RenderEnv
  const token = tokens[index]
  const lang = token.info.trim().split(/\s+/)[0] ?? ''
  const code = token.content
  if (lang.toLowerCase() === 'mermaid') {
    return (
      `<div class="md-code md-diagram">${codeHead(lang, env)}` +
      `<code data-code hidden>${esc(code)}</code>${diagramHtml(code)}</div>`
    )
  }
  const kind = artifactKind(lang, code)
  const preview = kind
    ? `<button type="button" class="md-copy" data-preview-artifact="${kind}" aria-pressed="false">${esc(env.previewLabel ?? 'Preview')}</button>`
    : ''
  const body = codeHtml(code, lang)
  const pending = body.pending ? ` data-rich="code" data-grammar="${esc(body.pending)}"` : ''
  return (
    `<div class="md-code">${codeHead(lang, env, preview)}` +
    `<pre><code class="hljs" data-code${pending}>${body.html}</code></pre></div>`
  )
}

const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options))
md.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index].attrSet('target', '_blank')
  tokens[index].attrSet('rel', 'noopener noreferrer')
  return defaultLinkOpen(tokens, index, options, env, self)
}

export function renderMarkdown(text: string, env: RenderEnv = {}): string {
  return md.render(text, { ...env })
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
    if (!this.isAppend(next)) return false
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

  /**
   * A stream only appends; a replacement (a retry, an edit) differs in length or at the ends.
   * Comparing the ends, not the whole text, keeps a delta's cost independent of the reply's length.
   */
  private isAppend(next: string): boolean {
    const old = this.text
    if (next.length < old.length) return false
    const probe = Math.min(64, old.length)
    return (
      next.startsWith(old.slice(0, probe)) &&
      next.startsWith(old.slice(old.length - probe), old.length - probe)
    )
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
