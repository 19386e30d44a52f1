import type { MCPToolDefinition } from '@shared/types/tools'
import type { AgentTool, ToolScope } from './defineTool'
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
import { subagentOrchestratorTool } from './subagentOrchestrator'

/** Names no MCP tool may take: current built-ins and those later issues add. */
export const RESERVED_TOOL_NAMES = new Set([
  'read',
  'write',
  'edit',
  'glob',
  'grep',
  'exec',
  'process',
  'deepchat_question',
  'update_plan',
  'subagent_orchestrator',
  'tape_info',
  'tape_search',
  'tape_context',
  'tape_anchors',
  'tape_handoff',
  'skill_list',
  'skill_view',
  'image_generate',
  'load_url',
  'get_browser_status',
  'cdp_send',
  'memory_remember',
  'memory_recall',
  'memory_forget',
  'deepchat_settings_read',
  'deepchat_settings_set_model',
  'deepchat_settings_set_temperature',
  'deepchat_settings_set_system_prompt',
  'deepchat_settings_set_permission_mode',
  'deepchat_settings_set_tools'
])

const SERVER_LABELS: Record<string, string> = {
  'agent-filesystem': 'Files and commands',
  'agent-core': 'Agent',
  'agent-tape': 'Session history',
  'agent-skills': 'Skills',
  'agent-memory': 'Memory',
  'deepchat-settings': 'Chat settings',
  'agent-image-generation': 'Image generation',
  'agent-subagents': 'Subagents'
}

export interface AgentToolManagerOptions {
  resolveRipgrep?: () => Promise<string>
}

/**
 * The registry of built-in tools, in the order the model sees them. Definitions (with JSON
 * Schema) are built once; per-session state (plan revisions) is cleared with the session.
 */
export class AgentToolManager {
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
      ...tapeTools,
      ...memoryTools,
      ...skillTools,
      ...chatSettingsTools,
      imageGenerateTool,
      subagentOrchestratorTool
    ] as AgentTool[]
    for (const tool of this.tools) {
      if (!RESERVED_TOOL_NAMES.has(tool.name))
        throw new Error(`agent tool ${tool.name} must be in RESERVED_TOOL_NAMES`)
    }
    this.byName = new Map(this.tools.map((t) => [t.name, t]))
    this.definitions = this.tools.map(toDefinition)
  }

  /**
   * Definitions for a session: without the tools it disabled, runtime-only tools, diagnostic
   * tools it did not turn on, and tools whose port or feature is unavailable (given a scope).
   */
  definitionsFor(disabled?: readonly string[], scope?: ToolScope): MCPToolDefinition[] {
    const off = new Set(disabled ?? [])
    return this.definitions.filter(
      (d) => !off.has(d.function.name) && this.offered(this.byName.get(d.function.name)!, scope)
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

  /** Every built-in tool's name, group and one-line purpose, for the settings page. */
  catalog(): {
    name: string
    server: string
    readOnly: boolean
    description: string
    /** `diagnostic` tools are off in every chat until switched on there. */
    exposure: 'model' | 'diagnostic'
  }[] {
    return this.tools
      .filter((t) => t.exposure !== 'runtime')
      .map((t) => ({
        name: t.name,
        server: t.server,
        readOnly: t.readOnly,
        description: t.description,
        exposure: t.exposure === 'diagnostic' ? 'diagnostic' : 'model'
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
    server: { id: tool.server, name: tool.server, description: SERVER_LABELS[tool.server] },
    annotations: { readOnlyHint: tool.readOnly }
  }
}
