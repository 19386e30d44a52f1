import MarkdownIt from 'markdown-it'
import type { Token } from 'markdown-it'
import { mathPlugin } from './mathRule'

/** The chat renderer's parse (raw HTML off, bare links linked, math); only the text is wanted here. */
const md = new MarkdownIt({ html: false, linkify: true, breaks: false })
mathPlugin(md, () => '')

/**
 * The words a reply shows, from its markdown: formatting marks gone (`foo **bar**` reads
 * `foo bar`), code and math as written, each block on a line of its own. Find in chat counts
 * hits in this text in main, and the page matches the rendered text the same way (blocks apart,
 * inline formatting joined), so a hit that crosses formatting is found and marked by both.
 */
export function markdownShownText(markdown: string): string {
  const lines: string[] = []
  for (const token of md.parse(markdown, {})) {
    if (token.type === 'inline') lines.push(inlineText(token.children ?? []))
    else if (token.type === 'fence' || token.type === 'code_block' || token.type === 'math_block')
      lines.push(token.content.replace(/\n$/, ''))
  }
  return lines.join('\n')
}

function inlineText(children: readonly Token[]): string {
  let text = ''
  for (const child of children) {
    if (child.type === 'text' || child.type === 'code_inline' || child.type === 'math_inline')
      text += child.content
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += '\n'
  }
  return text
}
