/**
 * An HTML chat export carries each Mermaid diagram as its source (the back end has no browser
 * to lay one out). Before the page is saved, the window draws them with the same renderer the
 * chat uses (`securityLevel: 'strict'`), keeping the source below each drawing. A diagram that
 * does not parse keeps its source box. The page's CSP lets no script run, so the SVG is inert.
 */
export async function drawExportDiagrams(
  html: string,
  render: (source: string) => Promise<string> = defaultRender
): Promise<{ html: string; drawn: number }> {
  const doc = new DOMParser().parseFromString(html, 'text/html')
  const figures = [...doc.querySelectorAll('figure[data-diagram="mermaid"]')]
  if (figures.length === 0) return { html, drawn: 0 }
  let drawn = 0
  for (const figure of figures) {
    const source = figure.querySelector('pre code')?.textContent ?? ''
    let svg: string
    try {
      svg = await render(source)
    } catch {
      continue
    }
    // Read by the HTML parser (as the chat shows it): Mermaid's labels are HTML inside the SVG.
    const holder = doc.createElement('div')
    holder.innerHTML = svg
    const drawing = holder.querySelector('svg')
    if (!drawing) continue
    const caption = doc.createElement('figcaption')
    caption.textContent = 'Mermaid diagram'
    const details = doc.createElement('details')
    const summary = doc.createElement('summary')
    summary.textContent = 'Source'
    const pre = doc.createElement('pre')
    pre.appendChild(doc.createElement('code')).textContent = source
    details.append(summary, pre)
    figure.replaceChildren(caption, drawing, details)
    drawn++
  }
  return { html: `<!doctype html>\n${doc.documentElement.outerHTML}\n`, drawn }
}

async function defaultRender(source: string): Promise<string> {
  const { renderDiagram } = await import('@renderer/components/chat/lib/rich/mermaidRenderer')
  return renderDiagram(source, false)
}
