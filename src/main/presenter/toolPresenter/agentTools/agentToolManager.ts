import type { MCPToolDefinition } from '@shared/types/tools'
import type { AgentTool, AgentToolGroup, ToolScope } from './defineTool'
import { readTool } from './read'
import { writeTool } from './write'
import { editTool } from './edit'
import { globTool } from './glob'
import { createGrepTool } from './grep'
import { execTool } from './exec'
import { processTool } from './process'
import { questionTool } from './question'
import { PlanRevisions, createUpdatePlanTool } from './updatePlan'
import { tapeTools } from './tapeTools'
import { memoryTools } from './memoryTools'
import { skillTools } from './skillTools'
import { chatSettingsTools } from './chatSettingsTools'
import { imageGenerateTool } from './imageGenerate'
import { toolSearchTool } from './toolSearch'
import { subagentOrchestratorTool } from './subagentOrchestrator'
import { webSearchTool } from './webSearch'
import { webFetchTool } from './webFetch'
import { knowledgeSearchTool } from './knowledgeSearch'

const GROUP_LABELS: Record<AgentToolGroup, string> = {
  'agent-filesystem': 'Files and commands',
  'agent-core': 'Agent',
  'agent-tape': 'Session history',
  'agent-skills': 'Skills',
  'agent-memory': 'Memory',
  'deepchat-settings': 'Chat settings',
  'agent-image-generation': 'Image generation',
  'agent-subagents': 'Subagents',
  'agent-web': 'Web search',
  'agent-knowledge': 'Knowledge bases'
}

export interface AgentToolManagerOptions {
  resolveRipgrep?: () => Promise<string>
}

/** A built-in as the settings catalog lists it. */
export type AgentToolCatalogEntry = Pick<
  AgentTool,
  'name' | 'group' | 'labelKey' | 'readOnly' | 'description'
> & {
  exposure: 'model' | 'diagnostic'
}

/**
 * The registry of built-in tools, in the order the model sees them: the one list a new tool is
 * added to. Definitions (with JSON Schema) are built once; per-session state (plan revisions)
 * is cleared with the session.
 */
export class AgentToolManager {
  /** Every built-in's name, runtime-only ones included: no MCP tool may take one. */
  readonly names: ReadonlySet<string>
  private readonly tools: AgentTool[]
  private readonly byName: Map<string, AgentTool>
  private readonly definitions: MCPToolDefinition[]
  private readonly planRevisions = new PlanRevisions()

  constructor(options: AgentToolManagerOptions = {}) {
    this.tools = [
      readTool,
      writeTool,
      editTool,
      globTool,
      createGrepTool({ resolveRipgrep: options.resolveRipgrep }),
      execTool,
      processTool,
      questionTool,
      createUpdatePlanTool(this.planRevisions),
      toolSearchTool,
      ...tapeTools,
      ...memoryTools,
      ...skillTools,
      ...chatSettingsTools,
      imageGenerateTool,
      webSearchTool,
      webFetchTool,
      knowledgeSearchTool,
      subagentOrchestratorTool
    ] as AgentTool[]
    this.byName = new Map(this.tools.map((t) => [t.name, t]))
    if (this.byName.size !== this.tools.length) throw new Error('two agent tools share a name')
    this.names = new Set(this.byName.keys())
    this.definitions = this.tools.map(toDefinition)
  }

  /**
   * Definitions for a session: without the tools it disabled, runtime-only tools, diagnostic
   * tools it did not turn on, and tools whose port or feature is unavailable (given a scope).
   */
  definitionsFor(disabled?: readonly string[], scope?: ToolScope): MCPToolDefinition[] {
    const off = new Set(disabled ?? [])
    const once = scope && withToolStateReadOnce(scope)
    return this.definitions.filter(
      (d) => !off.has(d.function.name) && this.offered(this.byName.get(d.function.name)!, once)
    )
  }

  /** Whether the model may call `tool` in this session (it would be in its definitions). */
  offered(tool: AgentTool, scope?: ToolScope): boolean {
    const exposure = tool.exposure ?? 'model'
    if (exposure === 'runtime') return false
    if (!scope) return exposure === 'model'
    const state = scope.runtime.toolState?.(scope.sessionId)
    if (state?.disabledTools.includes(tool.name)) return false
    if (exposure === 'diagnostic' && !state?.enabledTools.includes(tool.name)) return false
    return this.available(tool, scope)
  }

  /** Whether the session could have `tool`, whatever its switches say (a skill, a port, a setting). */
  available(tool: AgentTool, scope: ToolScope): boolean {
    try {
      return tool.available ? tool.available(scope) : true
    } catch {
      // A broken availability check hides the tool; it never breaks the whole list.
      return false
    }
  }

  /** Every built-in the user can switch, with its group, label, read-only fact, exposure and purpose. */
  catalog(): AgentToolCatalogEntry[] {
    return this.tools
      .filter((t) => t.exposure !== 'runtime')
      .map(({ name, group, labelKey, readOnly, description, exposure }) => ({
        name,
        group,
        labelKey,
        readOnly,
        description,
        /** `diagnostic` tools are off in every chat until switched on there. */
        exposure: exposure === 'diagnostic' ? 'diagnostic' : 'model'
      }))
  }

  get(name: string): AgentTool | undefined {
    return this.byName.get(name)
  }

  clearSession(sessionId: string): void {
    this.planRevisions.clear(sessionId)
  }
}

function toDefinition(tool: AgentTool): MCPToolDefinition {
  return {
    type: 'function',
    source: 'agent',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    server: { id: tool.group, name: tool.group, description: GROUP_LABELS[tool.group] },
    facts: {
      readOnly: tool.readOnly,
      parallelSafe: tool.parallelSafe,
      ...(tool.interaction ? { interaction: tool.interaction } : {})
    }
  }
}

/**
 * `scope` whose runtime reads the session's tool state once: listing the tools asks it for
 * every tool (a database read each, ~5 ms a turn in all).
 */
function withToolStateReadOnce(scope: ToolScope): ToolScope {
  const runtime = scope.runtime
  if (!runtime.toolState) return scope
  let state: ReturnType<NonNullable<typeof runtime.toolState>> | undefined
  const readOnce = (sessionId: string) =>
    sessionId === scope.sessionId ? (state ??= runtime.toolState!(sessionId)) : runtime.toolState!(sessionId)
  // Everything else of the runtime through its prototype; toolState may be a read-only property.
  const once = Object.create(runtime, { toolState: { value: readOnce } }) as typeof runtime
  return { ...scope, runtime: once }
}
