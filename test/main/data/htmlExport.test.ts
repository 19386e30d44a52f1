import { describe, expect, it } from 'vitest'
import type { ChatExport } from '@shared/types/chatExport'
import { chatHtml } from '../../../src/main/presenter/dataPresenter/chatDocuments'

function docWith(answer: string): ChatExport {
  return {
    format: 'deepchat-desk.chat',
    version: 1,
    exportedAt: 1,
    chat: { title: 'Rich', providerId: null, modelId: null, createdAt: 1 },
    messages: [
      {
        role: 'assistant',
        status: 'sent',
        content: null,
        blocks: [{ id: 'c', kind: 'content', status: 'success', text: answer, createdAt: 1, updatedAt: 1 }],
        metadata: {},
        attachments: [],
        createdAt: 1
      }
    ]
  }
}

describe('HTML export', () => {
  it('draws math as MathML (no script or font needed) and keeps a formula KaTeX rejects as its source', () => {
    const html = chatHtml(docWith('Euler: $e^{i\\pi}+1=0$\n\n$$\\int_0^1 x\\,dx$$\n\nBad: $\\frac{1$ end'))
    expect(html).toMatch(/<math[^>]*>[\s\S]*<mi>e<\/mi>/)
    expect(html).toMatch(/<math[^>]*display="block"/)
    expect(html).not.toContain('$e^{i')
    expect(html).toContain('<code class="math-source">\\frac{1</code>')
    expect(html).not.toMatch(/<script|<link|@font-face/i)
  })

  it('styles tables (scrolling in their own box) and quotes', () => {
    const table = `| ${Array.from({ length: 14 }, (_, i) => `column${i}`).join(' | ')} |\n|${' --- |'.repeat(14)}\n| ${Array.from({ length: 14 }, () => 'cell').join(' | ')} |`
    const html = chatHtml(docWith(`${table}\n\n> quoted words`))
    expect(html).toContain('<div class="table-wrap"><table>')
    expect(html).toMatch(/\.table-wrap\{overflow-x:auto/)
    expect(html).toMatch(/th,td\{border:1px solid/)
    expect(html).toContain('<blockquote>')
    expect(html).toMatch(/blockquote\{[^}]*border-left/)
  })

  it('shows a Mermaid diagram as labelled, escaped source instead of pretending to draw it', () => {
    const html = chatHtml(docWith('```mermaid\ngraph TD; A-->B; B--><script>x</script>\n```'))
    expect(html).toContain('<figure class="diagram" data-diagram="mermaid"><figcaption>Mermaid diagram')
    expect(html).toContain('A--&gt;B')
    expect(html).not.toContain('<script>x')
  })
})
