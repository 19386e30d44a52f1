import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The JavaScript a window loads before the chat is usable: the entry's static imports and the
 * chat page's (the route `/` shows it), transitively. Dynamic imports (settings pages, dialogs,
 * Mermaid, KaTeX, highlight.js languages) load later and are not counted.
 */
export const FIRST_LOAD_ROOTS = ['index.html', 'src/pages/ChatPage.vue']
/** The budget from issue #16: raw bytes, not gzip. */
export const FIRST_LOAD_BUDGET_BYTES = 600 * 1024

export interface ManifestChunk {
  file: string
  src?: string
  isEntry?: boolean
  imports?: string[]
  dynamicImports?: string[]
}
export type Manifest = Record<string, ManifestChunk>

/** The JS files reached from `roots` through static imports. */
export function firstLoadFiles(manifest: Manifest, roots: readonly string[] = FIRST_LOAD_ROOTS): string[] {
  const seen = new Set<string>()
  const visit = (key: string): void => {
    const chunk = manifest[key]
    if (!chunk) throw new Error(`the vite manifest has no chunk ${key}`)
    if (seen.has(key)) return
    seen.add(key)
    for (const next of chunk.imports ?? []) visit(next)
  }
  roots.forEach(visit)
  return [...seen].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'))
}

export interface FirstLoadReport {
  files: Array<{ file: string; bytes: number }>
  totalBytes: number
}

/** Reads `<outDir>/.vite/manifest.json` and the sizes of the first-load files. */
export function readFirstLoad(outDir: string): FirstLoadReport {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Manifest
  const files = firstLoadFiles(manifest).map((file) => ({ file, bytes: statSync(join(outDir, file)).size }))
  return { files, totalBytes: files.reduce((sum, f) => sum + f.bytes, 0) }
}

export function formatFirstLoad(report: FirstLoadReport): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  const lines = report.files
    .sort((a, b) => b.bytes - a.bytes)
    .map((f) => `  ${kb(f.bytes).padStart(10)}  ${f.file}`)
  return [
    `JS loaded before the chat is interactive: ${kb(report.totalBytes)} (budget ${kb(FIRST_LOAD_BUDGET_BYTES)})`,
    ...lines
  ].join('\n')
}

/** Prints the first-load report after the renderer build (`npm run build`). */
export function firstLoadReportPlugin() {
  let outDir = ''
  return {
    name: 'deepchat-first-load-report',
    apply: 'build' as const,
    configResolved(config: { build: { outDir: string } }) {
      outDir = config.build.outDir
    },
    closeBundle(error?: Error) {
      if (error) return
      console.log(formatFirstLoad(readFirstLoad(outDir)))
    }
  }
}
