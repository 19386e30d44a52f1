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

/** A finished chunk, and whether it is a piece of a long code block or list split at a line. */
export interface FinishedChunk {
  text: string
  /** It continues the block the chunk before ended. */
  joined: boolean
  /** Its last block goes on in the next chunk (or the tail). */
  continues: boolean
}

// A long code block or list without a blank line would stay in the live tail, re-rendered on
// every delta, so its cost would grow with it: it is split at a line after this many lines.
const CODE_PIECE_LINES = 40
const LIST_PIECE_LINES = 60
const LIST_ITEM = /^(?:[-*+]|\d{1,9}[.)])[ \t]/
const FENCE = /^ {0,3}(`{3,}|~{3,})/

/** Whether `line` closes a code block opened with `marker` (same character, at least as long). */
function closesFence(line: string, marker: string): boolean {
  const match = FENCE.exec(line)
  return (
    match !== null &&
    match[1][0] === marker[0] &&
    match[1].length >= marker.length &&
    !line.trim().slice(match[1].length)
  )
}

/**
 * Splits streaming markdown into finished chunks and a live tail. A chunk ends at a blank line
 * outside a code fence, or right after a closing fence, so finished chunks never change and are
 * rendered once; only the tail is re-rendered per delta. A code block longer than
 * CODE_PIECE_LINES is split into pieces (each closed and the next reopened with the same fence
 * line), and a list longer than LIST_PIECE_LINES before a top-level item; the pieces are marked
 * `joined` so they read as one block. It is fed only the appended text and keeps only the tail,
 * so the cost of a delta does not grow with the length of the reply.
 */
export class MarkdownSplitter {
  /** Length of all text fed so far. */
  length = 0
  /** Text after the last finished chunk (after a code split, starting with the reopened fence). */
  tail = ''
  /** End offsets (in all text) of finished chunks. */
  readonly boundaries: number[] = []
  /** Finished chunks not yet taken. */
  private finished: FinishedChunk[] = []
  /** Offset in `tail` of the first line not scanned yet. */
  private scanned = 0
  /** Offset (in all text) where the tail's own text starts. */
  private tailStart = 0
  /** Length of the reopened fence line at the start of the tail (not in the text fed). */
  private reopened = 0
  private tailLines = 0
  private tailJoined = false
  private fence: { marker: string; line: string; lines: number } | null = null

  append(piece: string): void {
    if (!piece) return
    this.tail += piece
    this.length += piece.length
    for (;;) {
      const newline = this.tail.indexOf('\n', this.scanned)
      if (newline < 0) break
      const lineStart = this.scanned
      const line = this.tail.slice(lineStart, newline)
      this.scanned = newline + 1
      if (!this.fence && this.tailLines >= LIST_PIECE_LINES && LIST_ITEM.test(line)) {
        this.finish(lineStart, '', true)
        this.scanned = newline + 1 - lineStart
      }
      this.tailLines++
      if (this.endsChunk(line)) this.finish(this.scanned, '', false)
      else if (this.fence && this.fence.lines >= CODE_PIECE_LINES) this.splitCode()
    }
  }

  /** The chunks finished since the last call, in order. */
  takeFinished(): FinishedChunk[] {
    const taken = this.finished
    this.finished = []
    return taken
  }

  get stableEnd(): number {
    return this.tailStart
  }

  /** Whether the tail continues the last finished chunk's code block or list. */
  get continuesTail(): boolean {
    return this.tailJoined
  }

  /** Finishes the tail up to `end` (a tail offset), plus `closing`; the next chunk is `joinedNext`. */
  private finish(end: number, closing: string, joinedNext: boolean): void {
    this.finished.push({
      text: this.tail.slice(0, end) + closing,
      joined: this.tailJoined,
      continues: joinedNext
    })
    this.tailStart += end - this.reopened
    this.boundaries.push(this.tailStart)
    this.tail = this.tail.slice(end)
    this.scanned = 0
    this.reopened = 0
    this.tailLines = 0
    this.tailJoined = joinedNext
  }

  /** Closes the code block here and reopens it in the tail with the same fence line. */
  private splitCode(): void {
    const fence = this.fence!
    // Closed at the opener's indentation: inside a list item a closer at column 0 would end
    // the item and open a new, empty code block instead.
    const indent = /^ */.exec(fence.line)![0]
    this.finish(this.scanned, `${indent}${fence.marker}\n`, true)
    this.tail = `${fence.line}\n${this.tail}`
    this.reopened = this.scanned = fence.line.length + 1
    fence.lines = 0
  }

  private endsChunk(line: string): boolean {
    if (this.fence) {
      const closes = closesFence(line, this.fence.marker)
      if (closes) this.fence = null
      else this.fence.lines++
      return closes
    }
    const fenceMatch = FENCE.exec(line)
    if (fenceMatch) {
      this.fence = { marker: fenceMatch[1], line, lines: 0 }
      return false
    }
    // A blank line ends a chunk unless nothing but blank lines came since the last one.
    return line.trim() === '' && this.tail.slice(this.reopened, this.scanned).trim() !== ''
  }
}

/** The code inside the first fenced block of `markdown` (to its closing fence or the end), as markdown-it gives it. */
export function fencedCode(markdown: string): string {
  const lines = markdown.split('\n')
  const open = lines.findIndex((line) => FENCE.test(line))
  if (open < 0) return ''
  const marker = FENCE.exec(lines[open])![1]
  const close = lines.findIndex((line, i) => i > open && closesFence(line, marker))
  // As markdown-it gives a fence's content: each line with its newline.
  const body = lines.slice(open + 1, close < 0 ? undefined : close)
  if (close < 0 && body.at(-1) === '') body.pop()
  // An indented fence (in a list item) has that indentation removed from its lines.
  const indent = /^ */.exec(lines[open])![0].length
  return body.map((line) => `${line.slice(Math.min(indent, /^ */.exec(line)![0].length))}\n`).join('')
}
