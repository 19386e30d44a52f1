import { ref } from 'vue'
import type { RenderEnv } from './markdownEngine'
import { escapeHtml } from './rich/richRenderers'

export type { RenderEnv }

/**
 * markdown-it and its plugins load on first use, not with the chat page: a new chat needs none
 * of it, and the composer takes input sooner. Until it has loaded, text shows as plain text.
 */
type Engine = typeof import('./markdownEngine')
let engine: Engine | null = null
let loading: Promise<Engine> | null = null

/** True once markdown-it has loaded: views rendered before then render again. */
export const markdownReady = ref(false)

export function loadMarkdown(): Promise<Engine> {
  loading ??= import('./markdownEngine').then((m) => {
    engine = m
    markdownReady.value = true
    return m
  })
  return loading
}

/** HTML for model markdown; plain escaped text (and the engine starts loading) before it is ready. */
export function renderMarkdown(text: string, env: RenderEnv = {}): string {
  if (engine) return engine.renderMarkdown(text, env)
  void loadMarkdown()
  return `<p class="whitespace-pre-wrap">${escapeHtml(text)}</p>`
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
