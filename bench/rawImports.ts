import { register } from 'node:module'

// Tool descriptions are `?raw` Markdown imports (a Vite feature); teach plain Node the same.
// Call before dynamically importing code that reaches the agent tools.
const rawHook = `
import { readFile } from 'node:fs/promises';
export async function resolve(specifier, context, next) {
  if (specifier.endsWith('?raw')) return { url: new URL(specifier, context.parentURL).href, shortCircuit: true };
  return next(specifier, context);
}
export async function load(url, context, next) {
  if (!url.endsWith('?raw')) return next(url, context);
  const text = await readFile(new URL(url.slice(0, -4)), 'utf8');
  return { format: 'module', source: 'export default ' + JSON.stringify(text), shortCircuit: true };
}`

export function registerRawImports(): void {
  register(`data:text/javascript,${encodeURIComponent(rawHook)}`)
}
