import katex from 'katex'
import 'katex/dist/katex.min.css'

/** Loaded on first use (a dynamic import): KaTeX and its stylesheet stay out of the first load. */
export function renderTex(tex: string, display: boolean): string {
  return katex.renderToString(tex, {
    displayMode: display,
    throwOnError: true,
    // Model text is untrusted: no \href, \url, \includegraphics or \htmlClass.
    trust: false,
    strict: 'ignore',
    maxSize: 50,
    maxExpand: 1000
  })
}
