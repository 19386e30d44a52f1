import type {
  AvailableCommand,
  ContentBlock,
  SessionConfigOption,
  SessionModeState,
  SessionUpdate,
  ToolCall,
  ToolCallContent,
  ToolCallUpdate
} from '@agentclientprotocol/sdk'
import type {
  AcpCommand,
  AcpConfigOption,
  AcpContentItem,
  AcpModelState,
  AcpModeState,
  AcpToolCall,
  AcpToolContent,
  AcpTurnEvent
} from '@shared/types/acp'

/** What we know of a terminal when a tool call shows it. */
export interface TerminalView {
  command: string | null
  output: string
  truncated: boolean
  exitStatus: { exitCode: number | null; signal: string | null } | null
  sandboxed: boolean
}

export type TerminalLookup = (terminalId: string) => TerminalView | null

export function contentItem(block: ContentBlock): AcpContentItem {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text }
    case 'image':
      return { type: 'image', mimeType: block.mimeType, data: block.data }
    case 'audio':
      return { type: 'audio', mimeType: block.mimeType, data: block.data }
    case 'resource_link':
      return { type: 'resource_link', uri: block.uri, name: block.name, mimeType: block.mimeType ?? null }
    case 'resource': {
      const resource = block.resource
      const text = 'text' in resource && typeof resource.text === 'string' ? resource.text : null
      return { type: 'resource', uri: resource.uri, mimeType: resource.mimeType ?? null, text }
    }
    default:
      return { type: 'text', text: JSON.stringify(block) }
  }
}

export function toolContent(items: ToolCallContent[], terminals: TerminalLookup): AcpToolContent[] {
  return items.map((item): AcpToolContent => {
    if (item.type === 'diff')
      return { type: 'diff', path: item.path, oldText: item.oldText ?? null, newText: item.newText }
    if (item.type === 'terminal') {
      const view = terminals(item.terminalId)
      return {
        type: 'terminal',
        terminalId: item.terminalId,
        command: view?.command ?? null,
        output: view?.output ?? '',
        truncated: view?.truncated ?? false,
        exitStatus: view?.exitStatus ?? null,
        sandboxed: view?.sandboxed ?? false
      }
    }
    return { type: 'content', content: contentItem(item.content) }
  })
}

/**
 * Tool calls of one turn, each kept whole: an update changes only the fields it carries, and
 * every event gives the merged state, so a consumer never has to merge.
 */
export class ToolCallTracker {
  private readonly calls = new Map<string, AcpToolCall>()

  constructor(private readonly terminals: TerminalLookup) {}

  get(id: string): AcpToolCall | undefined {
    return this.calls.get(id)
  }

  all(): AcpToolCall[] {
    return [...this.calls.values()]
  }

  start(call: ToolCall): AcpToolCall {
    const state: AcpToolCall = {
      id: call.toolCallId,
      title: call.title,
      kind: call.kind ?? 'other',
      status: call.status ?? 'pending',
      locations: (call.locations ?? []).map((l) => ({ path: l.path, line: l.line ?? null })),
      content: toolContent(call.content ?? [], this.terminals),
      ...(call.rawInput !== undefined ? { rawInput: call.rawInput } : {}),
      ...(call.rawOutput !== undefined ? { rawOutput: call.rawOutput } : {})
    }
    this.calls.set(state.id, state)
    return state
  }

  /** Merges an update; an update for a call never started starts it (agents skip `tool_call`). */
  update(update: ToolCallUpdate): { call: AcpToolCall; started: boolean } {
    const previous = this.calls.get(update.toolCallId)
    const base: AcpToolCall = previous ?? {
      id: update.toolCallId,
      title: update.title ?? update.toolCallId,
      kind: 'other',
      status: 'pending',
      locations: [],
      content: []
    }
    const next: AcpToolCall = {
      ...base,
      ...(update.title ? { title: update.title } : {}),
      ...(update.kind ? { kind: update.kind } : {}),
      ...(update.status ? { status: update.status } : {}),
      ...(update.locations
        ? { locations: update.locations.map((l) => ({ path: l.path, line: l.line ?? null })) }
        : {}),
      ...(update.content ? { content: toolContent(update.content, this.terminals) } : {}),
      ...(update.rawInput !== undefined ? { rawInput: update.rawInput } : {}),
      ...(update.rawOutput !== undefined ? { rawOutput: update.rawOutput } : {})
    }
    this.calls.set(next.id, next)
    return { call: next, started: !previous }
  }

  /** Calls showing `terminalId`, with that terminal's content refreshed. */
  refreshTerminal(terminalId: string): AcpToolCall[] {
    const changed: AcpToolCall[] = []
    for (const call of this.calls.values()) {
      if (!call.content.some((c) => c.type === 'terminal' && c.terminalId === terminalId)) continue
      const view = this.terminals(terminalId)
      const content = call.content.map((c) =>
        c.type === 'terminal' && c.terminalId === terminalId && view ? { ...c, ...view } : c
      )
      const next = { ...call, content }
      this.calls.set(call.id, next)
      changed.push(next)
    }
    return changed
  }

  /** The most recent call that names `path` (a diff or a location): what a file request belongs to. */
  callForPath(path: string): string | null {
    const matching = [...this.calls.values()].filter(
      (c) =>
        c.locations.some((l) => l.path === path) ||
        c.content.some((item) => item.type === 'diff' && item.path === path)
    )
    return matching.at(-1)?.id ?? null
  }
}

export function modeState(modes: SessionModeState | null | undefined): AcpModeState | null {
  if (!modes) return null
  return {
    currentModeId: modes.currentModeId,
    availableModes: modes.availableModes.map((m) => ({
      id: m.id,
      name: m.name,
      description: m.description ?? null
    }))
  }
}

export function commandList(commands: AvailableCommand[]): AcpCommand[] {
  return commands.map((c) => ({ name: c.name, description: c.description, inputHint: c.input?.hint ?? null }))
}

export function configOptionList(options: SessionConfigOption[] | null | undefined): AcpConfigOption[] {
  return (options ?? []).map((option) => {
    const choices =
      option.type === 'select' ? option.options.flatMap((o) => ('group' in o ? o.options : [o])) : []
    return {
      id: option.id,
      name: option.name,
      description: option.description ?? null,
      category: option.category ?? null,
      type: option.type,
      currentValue: option.currentValue,
      options: choices.map((c) => ({ value: c.value, name: c.name, description: c.description ?? null }))
    }
  })
}

/** Legacy `models` field of agents on older SDKs (`session/set_model`). */
interface LegacyModels {
  currentModelId: string
  availableModels: { modelId: string; name: string; description?: string | null }[]
}

/**
 * The models an agent offers: a `model` config option when there is one (ACP's stable way),
 * else the older `models` field some agents still send.
 */
export function modelState(configOptions: AcpConfigOption[], legacy: unknown): AcpModelState | null {
  const option = configOptions.find((o) => o.category === 'model' && o.type === 'select')
  if (option && typeof option.currentValue === 'string')
    return {
      currentModelId: option.currentValue,
      availableModels: option.options.map((o) => ({ id: o.value, name: o.name, description: o.description })),
      via: 'config_option',
      configId: option.id
    }
  if (!isLegacyModels(legacy)) return null
  return {
    currentModelId: legacy.currentModelId,
    availableModels: legacy.availableModels.map((m) => ({
      id: m.modelId,
      name: m.name,
      description: m.description ?? null
    })),
    via: 'session_model'
  }
}

function isLegacyModels(value: unknown): value is LegacyModels {
  const v = value as LegacyModels | null | undefined
  return (
    typeof v?.currentModelId === 'string' &&
    Array.isArray(v.availableModels) &&
    v.availableModels.every((m) => typeof m?.modelId === 'string' && typeof m.name === 'string')
  )
}

/** The turn events one `session/update` gives (none for user echoes and unknown kinds). */
export function turnEvents(update: SessionUpdate, tools: ToolCallTracker): AcpTurnEvent[] {
  switch (update.sessionUpdate) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk': {
      const role = update.sessionUpdate === 'agent_message_chunk' ? 'message' : 'thought'
      const item = contentItem(update.content)
      if (item.type !== 'text') return [{ type: 'content', role, content: item }]
      if (!item.text) return []
      return [role === 'message' ? { type: 'text', text: item.text } : { type: 'thought', text: item.text }]
    }
    case 'tool_call':
      return [{ type: 'tool_call', phase: 'start', call: tools.start(update) }]
    case 'tool_call_update': {
      const { call, started } = tools.update(update)
      return [{ type: 'tool_call', phase: started ? 'start' : 'update', call }]
    }
    case 'plan':
      return [
        {
          type: 'plan',
          entries: update.entries.map((e) => ({ content: e.content, priority: e.priority, status: e.status }))
        }
      ]
    case 'usage_update':
      return [{ type: 'usage', used: update.used, size: update.size }]
    case 'notice':
      return [
        {
          type: 'notice',
          severity: update.severity,
          title: update.title,
          description: update.description ?? null
        }
      ]
    default:
      // Mode, commands, config and session info come from the session state (see AcpSession).
      return []
  }
}
