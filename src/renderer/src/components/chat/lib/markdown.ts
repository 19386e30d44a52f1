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
 * rendered once; only the tail is re-rendered per delta. It is fed only the appended text and
 * keeps only the tail, so the cost of a delta does not grow with the length of the reply.
 */
export class MarkdownSplitter {
  /** Length of all text fed so far. */
  length = 0
  /** Text after the last finished chunk. */
  tail = ''
  /** End offsets (in all text) of finished chunks. */
  readonly boundaries: number[] = []
  /** Finished chunks not yet taken. */
  private finished: string[] = []
  /** Offset in `tail` of the first line not scanned yet. */
  private scanned = 0
  private fence: string | null = null

  append(piece: string): void {
    if (!piece) return
    this.tail += piece
    this.length += piece.length
    for (;;) {
      const newline = this.tail.indexOf('\n', this.scanned)
      if (newline < 0) break
      const line = this.tail.slice(this.scanned, newline)
      this.scanned = newline + 1
      if (this.endsChunk(line)) {
        this.finished.push(this.tail.slice(0, this.scanned))
        this.boundaries.push(this.length - this.tail.length + this.scanned)
        this.tail = this.tail.slice(this.scanned)
        this.scanned = 0
      }
    }
  }

  /** The chunks finished since the last call, in order. */
  takeFinished(): string[] {
    const taken = this.finished
    this.finished = []
    return taken
  }

  get stableEnd(): number {
    return this.length - this.tail.length
  }

  private endsChunk(line: string): boolean {
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(line)
    if (this.fence) {
      const closes =
        fenceMatch &&
        fenceMatch[1][0] === this.fence[0] &&
        fenceMatch[1].length >= this.fence.length &&
        !line.trim().slice(fenceMatch[1].length)
      if (closes) this.fence = null
      return Boolean(closes)
    }
    if (fenceMatch) {
      this.fence = fenceMatch[1]
      return false
    }
    // A blank line ends a chunk unless nothing but blank lines came since the last one.
    return line.trim() === '' && this.tail.slice(0, this.scanned).trim() !== ''
  }
}
