/**
 * An HTML or SVG artifact from the model, shown in an iframe that can do nothing to the app:
 * `sandbox` without `allow-same-origin` (an opaque origin: no cookies, storage or access to the
 * parent), without `allow-scripts`, forms, popups or top navigation, and a CSP inside the
 * document that refuses every network request (images and fonts only from data: URLs). The
 * frame also inherits the app's own CSP, which forbids inline scripts.
 */
export const ARTIFACT_SANDBOX = ''
export const ARTIFACT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data:"

export function artifactDocument(kind: 'html' | 'svg', source: string): string {
  const head = `<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${ARTIFACT_CSP}">`
  if (kind === 'svg')
    return `<!doctype html><html><head>${head}<style>html,body{margin:0}svg{max-width:100%;height:auto}</style></head><body>${source}</body></html>`
  // The CSP meta goes first so it applies before anything in the model's document is parsed.
  return `<!doctype html><html><head>${head}</head><body>${source}</body></html>`
}

/** Shows or hides the preview frame after the code block that holds `button`. */
export function toggleArtifactPreview(button: HTMLElement): void {
  const block = button.closest<HTMLElement>('.md-code')
  if (!block) return
  const existing = block.querySelector('iframe.md-artifact')
  if (existing) {
    existing.remove()
    button.setAttribute('aria-pressed', 'false')
    return
  }
  const kind = button.dataset.previewArtifact === 'svg' ? 'svg' : 'html'
  const frame = document.createElement('iframe')
  frame.className = 'md-artifact'
  frame.setAttribute('sandbox', ARTIFACT_SANDBOX)
  frame.setAttribute('referrerpolicy', 'no-referrer')
  frame.setAttribute('data-testid', 'artifact-preview')
  frame.title = kind === 'svg' ? 'SVG preview' : 'HTML preview'
  frame.srcdoc = artifactDocument(kind, block.querySelector('[data-code]')?.textContent ?? '')
  block.append(frame)
  button.setAttribute('aria-pressed', 'true')
}
