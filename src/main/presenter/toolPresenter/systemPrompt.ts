import { TOOL, promptHintsFor } from '@shared/builtinTools'
import type { MCPToolDefinition } from '@shared/types/tools'
import { FILESYSTEM_SERVER } from './agentTools/defineTool'

/**
 * Guidance for the model about the built-in tools it actually has this turn. MCP tools carry
 * their own descriptions; only built-ins get rules here.
 */
export function buildToolSystemPrompt(definitions: MCPToolDefinition[]): string {
  const builtins = definitions.filter((d) => d.source === 'agent')
  const names = new Set(builtins.map((d) => d.function.name))
  const sections: string[] = []
  const fileTools = builtins.filter((d) => d.server.id === FILESYSTEM_SERVER).map((d) => d.function.name)
  if (fileTools.length) {
    const lines = ['## Files and commands', `You have these tools: ${fileTools.join(', ')}.`]
    lines.push(...promptHintsFor(names))
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
  if (names.has(TOOL.updatePlan)) {
    sections.push(
      '## Plan\nFor work with several steps keep a plan with update_plan: send the whole list each time, at most one step in_progress, and bring it up to date before you finish your turn.'
    )
  }
  return sections.join('\n\n')
}
