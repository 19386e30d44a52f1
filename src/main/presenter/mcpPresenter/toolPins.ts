import { createHash } from 'node:crypto'
import { z } from 'zod'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { AppError } from '@shared/errors'
import { McpPinnedField, McpPinnedTool, type McpToolChange } from '@shared/types/mcpToolPins'
import type { ConfigPresenter } from '../configPresenter'

export const MCP_TOOL_PINS_DOCUMENT = 'mcp.toolPins'

/** Longest text of one field in a change view; a hostile server must not make the diff huge. */
const MAX_FIELD_TEXT = 20_000
/** All field texts of one server's change list together (1,000 changed tools stay a small answer). */
const MAX_CHANGES_TEXT = 1_000_000

const PinnedEntry = z.object({
  hash: z.string(),
  definition: McpPinnedTool,
  pinnedAt: z.number().int()
})
type PinnedEntry = z.infer<typeof PinnedEntry>

/** Arrays, not records keyed by tool name: a server may name a tool `__proto__`. */
const ToolPinsDocument = z.object({
  version: z.literal(1),
  servers: z.array(
    z.object({
      serverId: z.string(),
      tools: z.array(PinnedEntry),
      /** Tool name → the hash the user chose to keep off. */
      keptOff: z.array(z.object({ name: z.string(), hash: z.string() })).default([])
    })
  )
})
type ToolPinsDocument = z.infer<typeof ToolPinsDocument>

interface ServerPins {
  tools: Map<string, PinnedEntry>
  keptOff: Map<string, string>
}

export type ToolPinsBackend = Pick<ConfigPresenter, 'getDocument' | 'setDocument'>

/** Why a tool is held: changed since it was pinned, or never pinned. */
export type HeldReason = 'changed' | 'new'

/** JSON with object keys sorted at every depth, so equal definitions give equal text. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value && typeof value === 'object') {
    // fromEntries defines own properties, so a `__proto__` key stays a plain key.
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])])
    )
  }
  return value
}

export function canonicalJson(value: unknown): string {
  return JSON.stringify(canonical(value)) ?? 'null'
}

/** The pinned part of a listed tool. */
export function pinnedDefinition(tool: Tool): McpPinnedTool {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description ?? '',
    inputSchema: tool.inputSchema,
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {})
  }
}

/** sha256 of the canonical JSON of a tool's pinned definition. */
export function pinHash(definition: McpPinnedTool): string {
  return createHash('sha256').update(canonicalJson(definition)).digest('hex')
}

function fieldText(definition: McpPinnedTool | undefined, field: McpPinnedField): string {
  const value = definition?.[field]
  if (value === undefined) return ''
  return typeof value === 'string' ? value : JSON.stringify(canonical(value), null, 2)
}

/** Cuts a field's text to what the budget leaves, saying how much was left out. */
function cut(text: string, budget: { left: number }): string {
  const keep = Math.min(text.length, MAX_FIELD_TEXT, budget.left)
  budget.left -= keep
  return keep === text.length ? text : `${text.slice(0, keep)}\n… (${text.length - keep} more characters)`
}

/**
 * MCP tool pinning. The first successful tool listing of a server the user added or switched
 * on pins every tool: a sha256 of its name, title, description, input and output schema and
 * annotations, plus the definition itself for the diff. From then on a listed tool whose hash
 * differs, or a tool never pinned, is held: not offered to the model and refused when called,
 * until the user accepts it on the server's card (which pins the new definition).
 *
 * Stored in the config document `mcp.toolPins`; kept in memory after the first read.
 */
export class ToolPins {
  private servers?: Map<string, ServerPins>
  /** The stored pins did not parse: nothing is trusted on first sight, every tool waits for review. */
  private unreadable = false
  private readonly definitions = new WeakMap<Tool, { definition: McpPinnedTool; hash: string }>()
  /** Per server, the held tools last announced, so an event goes out only when they change. */
  private readonly announced = new Map<string, string>()

  constructor(
    private readonly backend: ToolPinsBackend,
    private readonly onHeldChanged: (serverId: string, pending: number) => void,
    private readonly log?: (message: string) => void
  ) {}

  /** Whether the server's tools were ever pinned (its first listing after the user allowed it). */
  isPinned(serverId: string): boolean {
    return this.load().has(serverId)
  }

  /**
   * A server listed its tools. Never pinned before: every tool is pinned now (the user added or
   * switched on this server). Then the card is told when the set of held tools changed.
   */
  observe(serverId: string, tools: readonly Tool[]): void {
    const servers = this.load()
    if (!servers.has(serverId)) {
      const now = Date.now()
      const trusted = this.unreadable ? [] : tools
      const pins = new Map(trusted.map((tool) => [tool.name, this.entry(tool, now)]))
      servers.set(serverId, { tools: pins, keptOff: new Map() })
      this.save()
    }
    this.announce(serverId, tools)
  }

  /** Held tools of this listing, by name. Empty for a server that was never pinned. */
  held(serverId: string, tools: readonly Tool[]): Map<string, HeldReason> {
    const held = new Map<string, HeldReason>()
    const pins = this.load().get(serverId)
    if (!pins) return held
    for (const tool of tools) {
      const pinned = pins.tools.get(tool.name)
      if (!pinned) held.set(tool.name, 'new')
      else if (pinned.hash !== this.describe(tool).hash) held.set(tool.name, 'changed')
    }
    return held
  }

  /** The held tools of this listing with what changed, for the server's card. */
  changes(serverId: string, tools: readonly Tool[]): McpToolChange[] {
    const pins = this.load().get(serverId)
    if (!pins) return []
    const held = this.held(serverId, tools)
    const budget = { left: MAX_CHANGES_TEXT }
    return tools
      .filter((tool) => held.has(tool.name))
      .map((tool) => {
        const { definition, hash } = this.describe(tool)
        const pinned = pins.tools.get(tool.name)
        const fields = McpPinnedField.options
          .map((field) => ({
            field,
            before: fieldText(pinned?.definition, field),
            after: fieldText(definition, field)
          }))
          .filter((f) => f.before !== f.after)
          .map((f) => ({ field: f.field, before: cut(f.before, budget), after: cut(f.after, budget) }))
        return {
          serverId,
          name: tool.name,
          kind: held.get(tool.name)!,
          keptOff: pins.keptOff.get(tool.name) === hash,
          hash,
          ...(pinned ? { pinnedAt: pinned.pinnedAt } : {}),
          fields
        }
      })
  }

  /**
   * Pins the listed definitions the user accepted. Each decision carries the hash the user was
   * shown: a tool that changed again since (or is not held) is refused and nothing is pinned.
   */
  accept(serverId: string, tools: readonly Tool[], decisions: { name: string; hash: string }[]): void {
    const pins = this.load().get(serverId)
    const held = this.held(serverId, tools)
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    const accepted: Tool[] = []
    for (const { name, hash } of decisions) {
      const tool = byName.get(name)
      if (!pins || !tool || !held.has(name))
        throw new AppError('mcp_tool_not_held', `Tool "${name}" has no change waiting for review`)
      if (this.describe(tool).hash !== hash)
        throw new AppError(
          'mcp_tool_changed_again',
          `Tool "${name}" changed again since it was shown; review the new change`
        )
      accepted.push(tool)
    }
    const now = Date.now()
    for (const tool of accepted) {
      pins!.tools.set(tool.name, this.entry(tool, now))
      pins!.keptOff.delete(tool.name)
    }
    if (accepted.length) this.save()
    this.announce(serverId, tools)
  }

  /** The user keeps these held tools off: they stay off and the card folds them away. */
  keepOff(serverId: string, tools: readonly Tool[], names: string[]): void {
    const pins = this.load().get(serverId)
    const held = this.held(serverId, tools)
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    for (const name of names) {
      if (!pins || !held.has(name))
        throw new AppError('mcp_tool_not_held', `Tool "${name}" has no change waiting for review`)
    }
    for (const name of names) pins!.keptOff.set(name, this.describe(byName.get(name)!).hash)
    if (names.length) this.save()
    this.announce(serverId, tools)
  }

  /** The server was removed: its pins go with it (adding it again pins afresh). */
  forget(serverId: string): void {
    this.announced.delete(serverId)
    if (this.load().delete(serverId)) this.save()
  }

  private announce(serverId: string, tools: readonly Tool[]): void {
    const keptOff = this.load().get(serverId)?.keptOff
    const held = [...this.held(serverId, tools).keys()]
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    const states = held.map((name) => {
      const hash = this.describe(byName.get(name)!).hash
      return { name, hash, folded: keptOff?.get(name) === hash }
    })
    const key = states
      .map((s) => `${s.name}:${s.hash}:${s.folded}`)
      .sort()
      .join('\n')
    if ((this.announced.get(serverId) ?? '') === key) return
    this.announced.set(serverId, key)
    this.onHeldChanged(serverId, states.filter((s) => !s.folded).length)
  }

  private describe(tool: Tool): { definition: McpPinnedTool; hash: string } {
    let described = this.definitions.get(tool)
    if (!described) {
      const definition = pinnedDefinition(tool)
      described = { definition, hash: pinHash(definition) }
      this.definitions.set(tool, described)
    }
    return described
  }

  private entry(tool: Tool, pinnedAt: number): PinnedEntry {
    const { definition, hash } = this.describe(tool)
    return { hash, definition, pinnedAt }
  }

  private load(): Map<string, ServerPins> {
    if (this.servers) return this.servers
    const stored: unknown = this.backend.getDocument(MCP_TOOL_PINS_DOCUMENT, z.unknown(), undefined)
    const parsed = ToolPinsDocument.safeParse(stored ?? { version: 1, servers: [] })
    if (!parsed.success) {
      // Re-pinning everything on sight would trust whatever the servers list now.
      this.unreadable = true
      this.log?.(`mcp: stored tool pins are unreadable; every MCP tool waits for review`)
    }
    const doc = parsed.success ? parsed.data : { version: 1 as const, servers: [] }
    this.servers = new Map(
      doc.servers.map((s) => [
        s.serverId,
        {
          tools: new Map(s.tools.map((entry) => [entry.definition.name, entry])),
          keptOff: new Map(s.keptOff.map((k) => [k.name, k.hash]))
        }
      ])
    )
    return this.servers
  }

  /** Memory is the truth while the app runs; a failed write is logged, never un-pins. */
  private save(): void {
    const doc: ToolPinsDocument = {
      version: 1,
      servers: [...this.load()].map(([serverId, pins]) => ({
        serverId,
        tools: [...pins.tools.values()],
        keptOff: [...pins.keptOff].map(([name, hash]) => ({ name, hash }))
      }))
    }
    try {
      this.backend.setDocument(MCP_TOOL_PINS_DOCUMENT, ToolPinsDocument, doc)
    } catch (error) {
      this.log?.(`mcp: saving tool pins failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}
