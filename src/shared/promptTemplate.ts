/**
 * Saved prompts' variables: `{{name}}` (letters, digits, `_`, `-`, spaces around allowed). The
 * composer asks for each distinct variable once, in the order they first appear.
 */
const VARIABLE = /\{\{\s*([\w-]{1,64})\s*\}\}/g

export function templateVariables(body: string): string[] {
  return [...new Set([...body.matchAll(VARIABLE)].map((m) => m[1]))]
}

/** The body with every variable replaced; a variable without a value becomes empty. */
export function fillTemplate(body: string, values: Record<string, string>): string {
  return body.replace(VARIABLE, (_, name: string) => values[name] ?? '')
}
