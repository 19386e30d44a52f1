import type { HLJSApi } from 'highlight.js'
import { grammarName, LANGUAGE_LOADERS } from './hljsLanguages'

/**
 * The rich parts of markdown — highlighted code, TeX math, Mermaid diagrams — load their
 * renderers on first use. Rendering is synchronous (markdown-it): when a renderer is already
 * loaded its output goes straight into the HTML; otherwise the HTML carries a placeholder
 * (`data-rich`) showing the source, and `hydrateRich` fills it in once the renderer arrives.
 * Finished markdown is rendered once, so each placeholder is filled once.
 */

/** Text as HTML: the five characters that could open markup, escaped. */
export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!
  )

type TexRenderer = (tex: string, display: boolean) => string
type DiagramRenderer = (source: string, dark: boolean) => Promise<string>

let hljs: HLJSApi | null = null
let hljsLoading: Promise<HLJSApi> | null = null
let renderTex: TexRenderer | null = null
let texLoading: Promise<TexRenderer> | null = null
let diagramLoading: Promise<DiagramRenderer> | null = null
const grammarsLoading = new Map<string, Promise<void>>()
/** Diagram results by theme and source, so a re-rendered tail shows a finished diagram at once. */
const diagrams = new Map<string, { svg?: string; error?: string }>()
const diagramKey = (source: string) => `${theme()}\n${source}`

function loadTex(): Promise<TexRenderer> {
  texLoading ??= import('./katexRenderer').then((m) => (renderTex = m.renderTex))
  return texLoading
}

function loadDiagrams(): Promise<DiagramRenderer> {
  diagramLoading ??= import('./mermaidRenderer').then((m) => m.renderDiagram)
  return diagramLoading
}

function loadGrammar(name: string): Promise<void> {
  let loading = grammarsLoading.get(name)
  if (!loading) {
    hljsLoading ??= import('highlight.js/lib/core').then((m) => (hljs = m.default))
    loading = Promise.all([hljsLoading, LANGUAGE_LOADERS[name]()]).then(([core, grammar]) =>
      core.registerLanguage(name, grammar.default)
    )
    grammarsLoading.set(name, loading)
  }
  return loading
}

/** A source-and-error box: a malformed formula or diagram never breaks the message. */
export function richErrorHtml(kind: 'math' | 'mermaid', source: string, message: string): string {
  const tag = kind === 'math' ? 'span' : 'div'
  return (
    `<${tag} class="md-rich-error" data-rich-error="${kind}" role="note">` +
    `<code class="md-rich-source">${escapeHtml(source)}</code>` +
    `<span class="md-rich-message">${escapeHtml(message)}</span></${tag}>`
  )
}

function texHtml(render: TexRenderer, tex: string, display: boolean): string {
  try {
    return render(tex, display)
  } catch (error) {
    return richErrorHtml('math', tex, error instanceof Error ? error.message : String(error))
  }
}

export function mathHtml(tex: string, display: boolean): string {
  if (renderTex) return texHtml(renderTex, tex, display)
  const tag = display ? 'div' : 'span'
  return `<${tag} class="md-math" data-rich="math" data-display="${display ? 1 : 0}">${escapeHtml(tex)}</${tag}>`
}

/** Highlighted code, its grammar loaded first (a language without one is escaped text). */
export async function highlightCode(code: string, language: string): Promise<string> {
  const grammar = grammarName(language)
  if (grammar) await loadGrammar(grammar)
  return codeHtml(code, language).html
}

/** Highlighted code when its grammar is loaded, else escaped text marked for highlighting later. */
export function codeHtml(code: string, fenceLanguage: string): { html: string; pending: string | null } {
  const grammar = grammarName(fenceLanguage)
  if (!grammar) return { html: escapeHtml(code), pending: null }
  if (!hljs?.getLanguage(grammar)) return { html: escapeHtml(code), pending: grammar }
  try {
    return { html: hljs.highlight(code, { language: grammar, ignoreIllegals: true }).value, pending: null }
  } catch {
    return { html: escapeHtml(code), pending: null }
  }
}

export function diagramHtml(source: string): string {
  const done = diagrams.get(diagramKey(source))
  if (done?.svg)
    return `<div class="md-mermaid" data-rich-done="mermaid" data-theme="${theme()}">${done.svg}</div>`
  if (done?.error) return richErrorHtml('mermaid', source, done.error)
  return `<div class="md-mermaid" data-rich="mermaid"><pre><code>${escapeHtml(source)}</code></pre></div>`
}

function theme(): 'dark' | 'light' {
  return typeof document !== 'undefined' && document.documentElement.classList.contains('dark')
    ? 'dark'
    : 'light'
}

async function fill(el: HTMLElement): Promise<void> {
  const kind = el.dataset.rich
  // A diagram drawn for the other theme holds its picture: its source is beside it.
  const source =
    (kind === 'mermaid' ? el.closest('.md-diagram')?.querySelector('[data-code]')?.textContent : null) ??
    el.textContent ??
    ''
  // Marked while its renderer loads, so it is neither filled twice nor mistaken for done.
  delete el.dataset.rich
  el.dataset.richLoading = kind
  if (kind === 'code') {
    const grammar = el.dataset.grammar ?? ''
    await loadGrammar(grammar)
    el.innerHTML = codeHtml(source, grammar).html
    delete el.dataset.richLoading
  } else if (kind === 'math') {
    const render = await loadTex()
    el.outerHTML = texHtml(render, source, el.dataset.display === '1')
  } else if (kind === 'mermaid') {
    const render = await loadDiagrams()
    const key = diagramKey(source)
    try {
      diagrams.set(key, { svg: await render(source, theme() === 'dark') })
    } catch (error) {
      diagrams.set(key, { error: error instanceof Error ? error.message : String(error) })
    }
    if (el.isConnected) el.outerHTML = diagramHtml(source)
    followTheme()
  }
}

let themeObserver: MutationObserver | null = null
/** Once a diagram is drawn, a switch between light and dark draws the shown ones again. */
function followTheme(): void {
  if (themeObserver || typeof MutationObserver === 'undefined') return
  let last = theme()
  themeObserver = new MutationObserver(() => {
    if (theme() === last) return
    last = theme()
    redrawStaleDiagrams(document)
  })
  themeObserver.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] })
}

/** Diagrams drawn for the other theme become placeholders again and are drawn anew. */
function redrawStaleDiagrams(root: ParentNode): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-rich-done="mermaid"]')) {
    if (el.dataset.theme === theme()) continue
    delete el.dataset.richDone
    el.dataset.rich = 'mermaid'
    fill(el).catch((error: unknown) => console.warn('rich rendering failed', error))
  }
}

/**
 * Fills the placeholders under `root`. `live` content (a block still streaming) waits with its
 * diagrams, whose source is probably incomplete; code and math fill in at once.
 */
export function hydrateRich(root: ParentNode, options: { live?: boolean } = {}): void {
  // A page rendered again from its kept HTML may hold a diagram drawn before a theme switch.
  redrawStaleDiagrams(root)
  for (const el of root.querySelectorAll<HTMLElement>('[data-rich]')) {
    if (options.live && el.dataset.rich === 'mermaid') continue
    fill(el).catch((error: unknown) => console.warn('rich rendering failed', error))
  }
}
