/**
 * The built-in tools that code outside the tools refers to (the chat's rows and cards, the
 * system prompt, checkpoints), and the facts those readers need about them. The definitions in
 * `src/main/presenter/toolPresenter/agentTools/` take their names from `TOOL`, and
 * `defineAgentTool` puts these facts on each definition, so a tool and its readers cannot drift
 * apart (`test/main/tools/toolFacts.test.ts` checks that they agree).
 */
export const TOOL = {
  read: 'read',
  write: 'write',
  edit: 'edit',
  glob: 'glob',
  grep: 'grep',
  exec: 'exec',
  process: 'process',
  updatePlan: 'update_plan',
  toolSearch: 'tool_search',
  subagentOrchestrator: 'subagent_orchestrator'
} as const
export type BuiltinToolName = (typeof TOOL)[keyof typeof TOOL]

/** How the chat shows a call: a file diff, command output, or its arguments and result. */
export type ToolView = 'diff' | 'terminal' | 'plain'

/** Tools whose calls put `file/snapshot` facts on the tape: their turn's checkpoint lists and reverts the files. */
export const CHECKPOINT_TOOLS = [TOOL.write, TOOL.edit, TOOL.exec] as const
export type CheckpointTool = (typeof CHECKPOINT_TOOLS)[number]

export interface BuiltinToolFacts {
  view: ToolView
  capturesCheckpoint: boolean
  /** The system prompt's line about the tool, when the model has it this turn. */
  promptHint?: string
}

const SEARCH_HINT =
  '- Find code with glob (paths) then grep (contents), then read the files. Never search with exec (no grep, rg, find, ls through the shell).'

/** In the order the system prompt lists their lines (one line for glob and grep together). */
const FACTS: Partial<Record<BuiltinToolName, { view?: ToolView; promptHint?: string }>> = {
  [TOOL.glob]: { promptHint: SEARCH_HINT },
  [TOOL.grep]: { promptHint: SEARCH_HINT },
  [TOOL.edit]: {
    view: 'diff',
    promptHint:
      '- Change existing files with edit: read first, copy old_string exactly, include enough context to make it unique.'
  },
  [TOOL.write]: { view: 'diff', promptHint: '- Use write only for new files or full rewrites.' },
  [TOOL.exec]: {
    view: 'terminal',
    promptHint:
      '- Use exec for builds, tests, git and package managers. Long commands return a process id; follow them with the process tool. Use background: true for servers and watchers.'
  },
  [TOOL.process]: { view: 'terminal' }
}

/** What the UI and the prompt know about the tool `name` (an MCP tool or unknown name: a plain view, nothing else). */
export function builtinToolFacts(name: string): BuiltinToolFacts {
  const facts = Object.hasOwn(FACTS, name) ? FACTS[name as BuiltinToolName] : undefined
  return {
    view: facts?.view ?? 'plain',
    capturesCheckpoint: (CHECKPOINT_TOOLS as readonly string[]).includes(name),
    ...(facts?.promptHint ? { promptHint: facts.promptHint } : {})
  }
}

/** The prompt's lines for the tools in `names`, in the prompt's order, each line once. */
export function promptHintsFor(names: ReadonlySet<string>): string[] {
  const hints = Object.entries(FACTS)
    .filter(([name, facts]) => names.has(name) && facts?.promptHint)
    .map(([, facts]) => facts!.promptHint!)
  return [...new Set(hints)]
}
