import { describe, expect, it } from 'vitest'
import { drawExportDiagrams } from '@renderer/lib/exportDiagrams'
import { chatHtml } from '../../../src/main/presenter/dataPresenter/chatDocuments'
import type { ChatExport } from '@shared/types/chatExport'

function exportWith(text: string): string {
  const doc: ChatExport = {
    format: 'deepchat-desk.chat',
    version: 1,
    exportedAt: 1,
    chat: { title: 'Diagrams', providerId: null, modelId: null, createdAt: 1 },
    messages: [
      {
        role: 'assistant',
        status: 'sent',
        content: null,
        blocks: [{ id: 'c', kind: 'content', status: 'success', text, createdAt: 1, updatedAt: 1 }],
        metadata: {},
        attachments: [],
        createdAt: 1
      }
    ]
  }
  return chatHtml(doc)
}

describe('diagrams in an HTML export', () => {
  it('are drawn into the page with their source kept below, the page head (CSP) untouched', async () => {
    const html = exportWith('```mermaid\ngraph TD; A-->B\n```\n\n```mermaid\nnot a diagram\n```')
    const seen: string[] = []
    const result = await drawExportDiagrams(html, async (source) => {
      seen.push(source)
      if (source.startsWith('not')) throw new Error('Parse error')
      return '<svg xmlns="http://www.w3.org/2000/svg" id="d1"><g><foreignObject><div>A<br>B</div></foreignObject></g></svg>'
    })
    expect(seen).toEqual(['graph TD; A-->B\n', 'not a diagram\n'])
    expect(result.drawn).toBe(1)
    const page = new DOMParser().parseFromString(result.html, 'text/html')
    const [drawn, failed] = [...page.querySelectorAll('figure[data-diagram="mermaid"]')]
    expect(drawn.querySelector('svg#d1 foreignObject div')?.textContent).toBe('AB')
    expect(drawn.querySelector('details pre code')?.textContent).toBe('graph TD; A-->B\n')
    expect(failed.querySelector('svg')).toBeNull()
    expect(failed.querySelector('figcaption')?.textContent).toContain('open it in a Mermaid viewer')
    expect(result.html.startsWith('<!doctype html>')).toBe(true)
    expect(
      page.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content')
    ).toContain("default-src 'none'")
  })

  it('leaves a page without diagrams exactly as it was', async () => {
    const html = exportWith('Just text.')
    expect(await drawExportDiagrams(html, async () => '<svg></svg>')).toEqual({ html, drawn: 0 })
  })
})
