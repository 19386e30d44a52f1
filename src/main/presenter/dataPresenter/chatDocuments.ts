import MarkdownIt from 'markdown-it'
import hljs from 'highlight.js/lib/common'
import katex from 'katex'
import { mathPlugin } from '@shared/markdown/mathRule'
import type { MessageBlock } from '@shared/types/blocks'
import type { ChatExport, ExportedMessage } from '@shared/types/chatExport'

/**
 * A chat export as a person reads it: Markdown, or one self-contained HTML page (code
 * highlighted at export time, images inlined, a CSP that lets it load nothing from anywhere).
 */

const md = new MarkdownIt({
  html: false,
  linkify: true,
  highlight: (code, lang) => {
    const language = lang && hljs.getLanguage(lang) ? lang : null
    return language ? hljs.highlight(code, { language, ignoreIllegals: true }).value : ''
  }
})
const esc = (text: string) => md.utils.escapeHtml(text)

/**
 * Math as MathML, which browsers draw themselves: the page stays self-contained (KaTeX's HTML
 * output would need its stylesheet and fonts). A formula KaTeX rejects stays as its source.
 */
function mathHtml(tex: string, display: boolean): string {
  try {
    return katex.renderToString(tex, {
      displayMode: display,
      output: 'mathml',
      throwOnError: true,
      trust: false, // model text: no \href, \url, \includegraphics
      strict: 'ignore',
      maxSize: 50,
      maxExpand: 1000
    })
  } catch {
    return `<code class="math-source">${esc(tex)}</code>`
  }
}
mathPlugin(md, mathHtml)

// A diagram needs Mermaid, which needs a browser to lay it out: the page shows its source,
// styled and labelled, rather than pretending. The window draws it into the page before saving
// (renderer lib/exportDiagrams.ts); a diagram it cannot draw stays like this.
const defaultFence = md.renderer.rules.fence!
md.renderer.rules.fence = (tokens, index, options, env, self) => {
  const token = tokens[index]
  if (token.info.trim().split(/\s+/)[0]?.toLowerCase() !== 'mermaid')
    return defaultFence(tokens, index, options, env, self)
  return (
    `<figure class="diagram" data-diagram="mermaid"><figcaption>Mermaid diagram (source; open it in a Mermaid viewer to draw it)</figcaption>` +
    `<pre><code>${esc(token.content)}</code></pre></figure>\n`
  )
}
// Wide tables scroll inside their own box instead of squeezing the page.
md.renderer.rules.table_open = () => '<div class="table-wrap"><table>\n'
md.renderer.rules.table_close = () => '</table></div>\n'

const ROLE_LABEL = { user: 'You', assistant: 'Assistant' } as const

function fence(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const ticks = '`'.repeat(longest + 1)
  return `${ticks}${lang}\n${text}\n${ticks}`
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')
}

function blockMarkdown(block: MessageBlock): string | null {
  switch (block.kind) {
    case 'content':
      return block.text
    case 'reasoning_content':
      return block.text.trim() ? `> **Thinking**\n>\n${quote(block.text)}` : null
    case 'tool_call': {
      const call = block.toolCall
      const parts = [`**Tool: ${call.name}**`, fence(call.params || '{}', 'json')]
      if (call.response !== undefined) parts.push(fence(call.response))
      return parts.join('\n\n')
    }
    case 'image':
      return `![image](data:${block.data.mimeType};base64,${block.data.data})`
    case 'error':
      return `> **Error:** ${block.text}`
    case 'plan':
    case 'action':
      return block.text.trim() ? block.text : null
  }
}

function messageMarkdown(message: ExportedMessage): string {
  const body =
    message.role === 'user'
      ? [
          message.content?.text ?? '',
          ...message.attachments.map((a) => `📎 ${a.name}`),
          ...(message.content?.links ?? []).map((l) => `🔗 ${l}`)
        ]
      : message.blocks.map(blockMarkdown)
  return `## ${ROLE_LABEL[message.role]}\n\n${body.filter((p) => p && p.trim()).join('\n\n')}`
}

export function chatMarkdown(doc: ChatExport): string {
  return [`# ${doc.chat.title}`, ...doc.messages.map(messageMarkdown)].join('\n\n') + '\n'
}

function blockHtml(block: MessageBlock): string {
  switch (block.kind) {
    case 'content':
      return md.render(block.text)
    case 'reasoning_content':
      return block.text.trim()
        ? `<details class="thinking"><summary>Thinking</summary>${md.render(block.text)}</details>`
        : ''
    case 'tool_call': {
      const call = block.toolCall
      const response =
        call.response === undefined ? '' : `<pre class="tool-result">${esc(call.response)}</pre>`
      return `<details class="tool"><summary>Tool: ${esc(call.name)}</summary><pre>${esc(call.params)}</pre>${response}</details>`
    }
    case 'image':
      // Only image types become a data: URL (a stored block may name anything).
      return /^image\/[a-z0-9.+-]+$/i.test(block.data.mimeType) &&
        /^[A-Za-z0-9+/]*={0,2}$/.test(block.data.data)
        ? `<img alt="" src="data:${block.data.mimeType};base64,${block.data.data}">`
        : ''
    case 'error':
      return `<p class="error">${esc(block.text)}</p>`
    case 'plan':
    case 'action':
      return block.text.trim() ? `<p>${esc(block.text)}</p>` : ''
  }
}

function messageHtml(message: ExportedMessage): string {
  const body =
    message.role === 'user'
      ? `<p class="user-text">${esc(message.content?.text ?? '')}</p>` +
        message.attachments.map((a) => `<p class="attachment">📎 ${esc(a.name)}</p>`).join('')
      : message.blocks.map(blockHtml).join('\n')
  return `<section class="message ${message.role}"><h2>${ROLE_LABEL[message.role]}</h2>${body}</section>`
}

// Nothing may load: no scripts, no fonts, no remote images (a model's ![](https://…) stays blank).
const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
const STYLE = `body{font:15px/1.6 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#18181b}
h2{font-size:.8rem;text-transform:uppercase;color:#71717a;margin:0 0 .25rem}
.message{border-top:1px solid #e4e4e7;padding:1rem 0}.user-text{white-space:pre-wrap}
pre{background:#f4f4f5;padding:.75rem;border-radius:.5rem;overflow:auto}img{max-width:100%}
.error{color:#be123c}details{margin:.5rem 0}summary{cursor:pointer;color:#52525b}
.hljs-keyword,.hljs-built_in{color:#7c3aed}.hljs-string{color:#15803d}.hljs-comment{color:#71717a;font-style:italic}
.hljs-number,.hljs-literal{color:#b45309}.hljs-title,.hljs-function{color:#1d4ed8}
.table-wrap{overflow-x:auto;margin:.75rem 0}table{border-collapse:collapse;font-size:.9rem}
th,td{border:1px solid #d4d4d8;padding:.35rem .6rem;text-align:left;vertical-align:top;overflow-wrap:normal;word-break:normal}
th{background:#f4f4f5;font-weight:600;white-space:nowrap}td{min-width:7rem;max-width:28rem}tr:nth-child(even) td{background:#fafafa}
blockquote{margin:.75rem 0;padding:.25rem 1rem;border-left:4px solid #d4d4d8;color:#52525b;background:#fafafa}
code{font:.9em ui-monospace,monospace}p code,li code{background:#f4f4f5;padding:.1em .3em;border-radius:.25rem}
math[display=block]{margin:.75rem 0;overflow-x:auto;overflow-y:hidden;padding:.25rem 0}.math-source{color:#be123c}
.diagram{margin:.75rem 0}.diagram figcaption{font-size:.8rem;color:#71717a;margin-bottom:.25rem}
.diagram pre{border-left:4px solid #a78bfa}
@media (prefers-color-scheme:dark){body{background:#18181b;color:#e4e4e7}pre,th,p code,li code{background:#27272a}
tr:nth-child(even) td,blockquote{background:#1f1f23}th,td{border-color:#3f3f46}blockquote{color:#a1a1aa;border-color:#52525b}
.message{border-color:#3f3f46}}`

export function chatHtml(doc: ChatExport): string {
  return `<!doctype html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(doc.chat.title)}</title><style>${STYLE}</style></head>
<body><h1>${esc(doc.chat.title)}</h1>
${doc.messages.map(messageHtml).join('\n')}
</body></html>
`
}
