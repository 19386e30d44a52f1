import type { MCPToolDefinition } from '@shared/types/tools'

/**
 * Guidance for the model about the built-in tools it actually has this turn. MCP tools carry
 * their own descriptions; only built-ins get rules here.
 */
export function buildToolSystemPrompt(definitions: MCPToolDefinition[]): string {
  const names = new Set(definitions.filter((d) => d.source === 'agent').map((d) => d.function.name))
  const sections: string[] = []
  const fileTools = ['read', 'write', 'edit', 'glob', 'grep', 'exec', 'process'].filter((n) => names.has(n))
  if (fileTools.length) {
    const lines = ['## Files and commands', `You have these tools: ${fileTools.join(', ')}.`]
    if (names.has('glob') || names.has('grep')) {
      lines.push(
        '- Find code with glob (paths) then grep (contents), then read the files. Never search with exec (no grep, rg, find, ls through the shell).'
      )
    }
    if (names.has('edit'))
      lines.push(
        '- Change existing files with edit: read first, copy old_string exactly, include enough context to make it unique.'
      )
    if (names.has('write')) lines.push('- Use write only for new files or full rewrites.')
    if (names.has('exec')) {
      lines.push(
        '- Use exec for builds, tests, git and package managers. Long commands return a process id; follow them with the process tool. Use background: true for servers and watchers.'
      )
    }
    lines.push(
      '- Tool output longer than 30,000 characters is saved to a file and you get a preview plus the path; read or grep that file for the rest.'
    )
    lines.push(
      '- Paths are relative to the workspace. Anything outside it, and commands that are not read-only, ask the user first; a denied request comes back as an error — do not retry the same call.'
    )
    sections.push(lines.join('\n'))
  }
  const askers = definitions
    .filter((d) => d.source === 'agent' && d.facts.interaction === 'question')
    .map((d) => d.function.name)
  if (askers.length) {
    sections.push(
      `## Asking the user\nUse ${askers.join(' or ')} only when you cannot proceed without the user's decision. One question per call, with 1–10 short options.`
    )
  }
  if (names.has('update_plan')) {
    sections.push(
      '## Plan\nFor work with several steps keep a plan with update_plan: send the whole list each time, at most one step in_progress, and bring it up to date before you finish your turn.'
    )
  }
  return sections.join('\n\n')
}
