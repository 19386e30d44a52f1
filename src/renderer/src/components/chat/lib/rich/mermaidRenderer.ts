import mermaid from 'mermaid'

let counter = 0
let theme: 'default' | 'dark' | null = null

/**
 * Loaded on first use. `strict`: Mermaid sanitises labels and disables click handlers, so a
 * diagram from the model cannot run script in the app.
 */
export async function renderDiagram(source: string, dark: boolean): Promise<string> {
  const wanted = dark ? 'dark' : 'default'
  if (theme !== wanted) {
    mermaid.initialize({
      startOnLoad: false,
      securityLevel: 'strict',
      theme: wanted,
      suppressErrorRendering: true
    })
    theme = wanted
  }
  // parse() throws the syntax error with its message; render() would draw an error picture instead.
  await mermaid.parse(source)
  const { svg } = await mermaid.render(`md-mermaid-${++counter}`, source)
  return svg
}
