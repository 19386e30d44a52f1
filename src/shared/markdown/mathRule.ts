import type { MarkdownIt, StateBlock, StateInline } from 'markdown-it'

/**
 * TeX math in model output: `$…$` and `\(…\)` inline, `$$…$$` and `\[…\]` as display math (on
 * their own lines, or inline). Only the syntax lives here; `render(tex, display)` turns a
 * formula into HTML, so KaTeX can be loaded on first use.
 *
 * A `$` opens math only when a non-space follows it, and closes only after a non-space and when
 * no digit follows it (Pandoc's rule), so "costs $5 and $10" stays text.
 */
export function mathPlugin(md: MarkdownIt, render: (tex: string, display: boolean) => string): void {
  md.inline.ruler.before('escape', 'math_inline', mathInline)
  md.block.ruler.before('fence', 'math_block', mathBlock, {
    alt: ['paragraph', 'reference', 'blockquote', 'list']
  })
  md.renderer.rules.math_inline = (tokens, i) => render(tokens[i].content, tokens[i].markup !== 'inline')
  md.renderer.rules.math_block = (tokens, i) =>
    `<div class="md-math-block">${render(tokens[i].content, true)}</div>\n`
}

const PAIRS: Array<{ open: string; close: string; display: boolean }> = [
  { open: '$$', close: '$$', display: true },
  { open: '\\[', close: '\\]', display: true },
  { open: '\\(', close: '\\)', display: false },
  { open: '$', close: '$', display: false }
]

function mathInline(state: StateInline, silent: boolean): boolean {
  const src = state.src
  const start = state.pos
  const pair = PAIRS.find((p) => src.startsWith(p.open, start))
  if (!pair) return false
  const from = start + pair.open.length
  let end = -1
  if (pair.open === '$') {
    if (/\s/.test(src[from] ?? ' ')) return false
    for (let at = src.indexOf('$', from); at >= 0; at = src.indexOf('$', at + 1)) {
      if (src[at - 1] === '\\') continue
      if (/\s/.test(src[at - 1]) || /\d/.test(src[at + 1] ?? '')) continue
      end = at
      break
    }
  } else end = src.indexOf(pair.close, from)
  if (end <= from) return false
  const tex = src.slice(from, end)
  if (!tex.trim()) return false
  if (!silent) {
    const token = state.push('math_inline', 'math', 0)
    token.content = tex
    token.markup = pair.display ? 'display' : 'inline'
  }
  state.pos = end + pair.close.length
  return true
}

function mathBlock(state: StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  const lineText = (line: number) =>
    state.src.slice(state.bMarks[line] + state.tShift[line], state.eMarks[line])
  if (state.sCount[startLine] - state.blkIndent >= 4) return false
  const first = lineText(startLine)
  const pair = PAIRS.find((p) => p.display && first.startsWith(p.open))
  if (!pair) return false
  const rest = first.slice(pair.open.length)
  let content: string
  let last = startLine
  const closeOnFirst = rest.trimEnd().endsWith(pair.close) && rest.trim().length >= pair.close.length
  if (closeOnFirst) {
    content = rest.trimEnd().slice(0, -pair.close.length)
    // `$$a$$ and more text` is inline display math inside a paragraph, not a block.
    if (content.includes(pair.close)) return false
  } else {
    const lines = [rest]
    for (last = startLine + 1; last < endLine; last++) {
      const text = lineText(last)
      if (text.trimEnd().endsWith(pair.close)) {
        lines.push(text.trimEnd().slice(0, -pair.close.length))
        break
      }
      lines.push(text)
    }
    if (last >= endLine) return false // never closed: left to the paragraph rule (still streaming)
    content = lines.join('\n')
  }
  if (silent) return true
  const token = state.push('math_block', 'math', 0)
  token.block = true
  token.content = content.trim()
  token.map = [startLine, last + 1]
  state.line = last + 1
  return true
}
