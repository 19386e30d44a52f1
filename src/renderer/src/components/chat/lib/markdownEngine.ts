import MarkdownIt from 'markdown-it'
import { mathPlugin } from '@shared/markdown/mathRule'
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
  /** The [n] marks that are links: the message has a source numbered n. */
  citations?: readonly number[]
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

// A table scrolls sideways inside its own box (focusable, so the keyboard can scroll it too);
// the reply around it keeps the column's width.
md.renderer.rules.table_open = () => '<div class="md-table" tabindex="0"><table>\n'
md.renderer.rules.table_close = () => '</table></div>\n'
// A cell with a lot of text gets a wider minimum, so it wraps into a few lines, not a word a line.
const LONG_CELL_CHARS = 40
for (const rule of ['td_open', 'th_open'] as const) {
  md.renderer.rules[rule] = (tokens, index, options, _env, self) => {
    if ((tokens[index + 1]?.content.length ?? 0) > LONG_CELL_CHARS)
      tokens[index].attrJoin('class', 'md-cell-long')
    return self.renderToken(tokens, index, options)
  }
}

const defaultLinkOpen =
  md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options))
md.renderer.rules.link_open = (tokens, index, options, env, self) => {
  tokens[index].attrSet('target', '_blank')
  tokens[index].attrSet('rel', 'noopener noreferrer')
  return defaultLinkOpen(tokens, index, options, env, self)
}

// [1], [2]: an answer's marks citing its sources. A mark whose source the message has is a link
// the message follows on click (MarkdownView's `cite`); any other stays text. A real link `[1](…)`
// or `[1][ref]` is taken by the link rule first, and `[0]`, `[100]` or `[1a]` stay text.
const CITATION = /^\[([1-9]\d?)\]/
md.inline.ruler.after('link', 'citation', (state, silent) => {
  // Inside a link's text it stays text: a link is never nested in a link.
  if (state.src.charCodeAt(state.pos) !== 0x5b /* [ */ || state.linkLevel > 0) return false
  const match = CITATION.exec(state.src.slice(state.pos, state.pos + 4))
  if (!match) return false
  if (!silent) state.push('citation', '', 0).meta = { n: Number(match[1]) }
  state.pos += match[0].length
  return true
})
md.renderer.rules.citation = (tokens, index, _options, rawEnv) => {
  const n = Number((tokens[index].meta as { n: number }).n)
  const linked = ((rawEnv ?? {}) as RenderEnv).citations?.includes(n)
  return linked ? `<a href="#" class="md-cite" data-cite="${n}">[${n}]</a>` : `[${n}]`
}

export function renderMarkdown(text: string, env: RenderEnv = {}): string {
  return md.render(text, { ...env })
}
