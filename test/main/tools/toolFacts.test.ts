import { exposeToolNames } from '../../../src/main/presenter/mcpPresenter/toolNames'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolCallResult } from '../../../src/main/presenter/toolPresenter'
import { PermissionRequiredError } from '../../../src/main/presenter/permission'
import { AgentToolManager } from '../../../src/main/presenter/toolPresenter/agentTools/agentToolManager'
import { buildToolSystemPrompt } from '../../../src/main/presenter/toolPresenter/systemPrompt'
import { CHECKPOINT_TOOLS, TOOL, builtinToolFacts } from '../../../src/shared/builtinTools'
import enUS from '../../../src/renderer/src/i18n/locales/en-US/agentTools'
import zhCN from '../../../src/renderer/src/i18n/locales/zh-CN/agentTools'
import { createFeatureHarness, type FeatureHarness } from './featureHarness'
import { createHarness, emptyMcp, type Harness } from './helpers'

const manager = new AgentToolManager()
const tools = [...manager.names].map((name) => manager.get(name)!)

/** The value at a dotted i18n key, or undefined. */
function lookup(messages: object, key: string): unknown {
  let node: unknown = messages
  for (const part of key.split('.'))
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined
  return node
}

describe('the facts on each built-in tool', () => {
  it('marks as read-only exactly the tools that change nothing', () => {
    // Reviewed tool by tool: everything else writes files, runs or stops processes, changes
    // memories, settings, the plan, a pending question or the tool list (skill_view activates).
    expect(tools.filter((t) => t.readOnly).map((t) => t.name)).toEqual([
      'read',
      'glob',
      'grep',
      'tape_search',
      'tape_context',
      'tape_info',
      'tape_anchors',
      'memory_recall',
      'skill_list',
      'deepchat_settings_read',
      'web_search',
      'knowledge_search'
    ])
  })

  it('lets only read-only tools run in parallel, and never a tool that asks the user', () => {
    for (const tool of tools) {
      if (tool.parallelSafe) expect(tool.readOnly, tool.name).toBe(true)
      if (tool.interaction) expect(tool.parallelSafe || tool.readOnly, tool.name).toBe(false)
    }
    expect(tools.filter((t) => t.interaction === 'question').map((t) => t.name)).toEqual([
      'deepchat_question'
    ])
  })

  it('gives every tool a friendly name in English and Chinese', () => {
    for (const tool of tools) {
      expect(lookup(enUS, tool.labelKey), `${tool.name} en-US`).toEqual(expect.any(String))
      expect(lookup(zhCN, tool.labelKey), `${tool.name} zh-CN`).toEqual(expect.any(String))
    }
  })

  it('lists the switchable tools in the settings catalog with their group, label and read-only fact', () => {
    const catalog = manager.catalog()
    expect(catalog.map((t) => t.name)).toEqual(
      tools.filter((t) => t.exposure !== 'runtime').map((t) => t.name)
    )
    for (const entry of catalog) {
      const tool = manager.get(entry.name)!
      expect(entry).toMatchObject({ group: tool.group, labelKey: tool.labelKey, readOnly: tool.readOnly })
    }
  })

  it('hands the facts to the definitions the loop dispatches by', () => {
    for (const definition of manager.definitionsFor()) {
      const tool = manager.get(definition.function.name)!
      expect(definition.facts, tool.name).toEqual({
        readOnly: tool.readOnly,
        parallelSafe: tool.parallelSafe,
        ...(tool.interaction ? { interaction: tool.interaction } : {})
      })
    }
  })

  it('gives the chat view, checkpoint capture and prompt line of each tool from the facts the UI reads', () => {
    // Every name the UI, the prompt and checkpoints use is a real tool's.
    for (const name of Object.values(TOOL)) expect(manager.get(name), name).toBeDefined()
    for (const tool of tools) {
      const { view, capturesCheckpoint, promptHint } = tool
      expect({ view, capturesCheckpoint, ...(promptHint ? { promptHint } : {}) }, tool.name).toEqual(
        builtinToolFacts(tool.name)
      )
    }
    expect(tools.filter((t) => t.view === 'diff').map((t) => t.name)).toEqual(['write', 'edit'])
    expect(tools.filter((t) => t.view === 'terminal').map((t) => t.name)).toEqual(['exec', 'process'])
    expect(tools.filter((t) => t.capturesCheckpoint).map((t) => t.name)).toEqual([...CHECKPOINT_TOOLS])
    // A name no built-in has (an MCP tool's) gets the plain view and nothing else.
    expect(builtinToolFacts('fs__write')).toEqual({ view: 'plain', capturesCheckpoint: false })
    expect(builtinToolFacts('constructor')).toEqual({ view: 'plain', capturesCheckpoint: false })
  })

  it("words the files section from the tools' own lines, in the prompt's order, each line once", () => {
    const section = (disabled: string[]) =>
      buildToolSystemPrompt(manager.definitionsFor(disabled)).split('\n\n')[0].split('\n')
    const all = section([])
    expect(all).toEqual([
      '## Files and commands',
      'You have these tools: read, write, edit, glob, grep, exec, process.',
      '- Find code with glob (paths) then grep (contents), then read the files. Never search with exec (no grep, rg, find, ls through the shell).',
      '- Change existing files with edit: read first, copy old_string exactly, include enough context to make it unique.',
      '- Use write only for new files or full rewrites.',
      '- Use exec for builds, tests, git and package managers. Long commands return a process id; follow them with the process tool. Use background: true for servers and watchers.',
      '- Tool output longer than 30,000 characters is saved to a file and you get a preview plus the path; read or grep that file for the rest.',
      '- Paths are relative to the workspace. Anything outside it, and commands that are not read-only, ask the user first; a denied request comes back as an error — do not retry the same call.'
    ])
    expect(section(['glob', 'edit', 'exec', 'process'])).toEqual([
      all[0],
      'You have these tools: read, write, grep.',
      all[2],
      all[4],
      all[6],
      all[7]
    ])
  })

  it('words the system prompt for the tool whose interaction is a question, and only when it is offered', () => {
    const all = manager.definitionsFor()
    expect(buildToolSystemPrompt(all)).toContain('Use deepchat_question only when')
    expect(buildToolSystemPrompt(manager.definitionsFor(['deepchat_question']))).not.toContain(
      '## Asking the user'
    )
  })
})

describe('reserved names', () => {
  let h: Harness
  beforeEach(() => {
    const names = [...manager.names, 'load_url']
    const exposed = exposeToolNames('clash', names)
    const clashing = names.map((name) => ({
      serverId: 'clash',
      serverName: 'clash',
      name,
      exposedName: exposed.get(name)!.name,
      description: `an MCP tool called ${name}`,
      inputSchema: { type: 'object' as const, properties: {} }
    }))
    h = createHarness({ mcp: { ...emptyMcp, listTools: async () => clashing } })
  })
  afterEach(() => h.close())

  it('are every built-in name, none with the `__` that MCP names carry, so no MCP tool shadows one', async () => {
    const definitions = await h.tools.getAllToolDefinitions(h.ctx)
    const mcpNames = definitions.filter((d) => d.source === 'mcp').map((d) => d.function.name)
    for (const name of manager.names) {
      expect(name, name).not.toContain('__')
      expect(mcpNames, name).not.toContain(name)
      expect(mcpNames, name).toContain(`clash__${name}`)
    }
    expect(mcpNames).toContain('clash__load_url')
  })
})

describe('tools that change the tool list', () => {
  let f: FeatureHarness
  beforeEach(() => (f = createFeatureHarness({ session: { permissionMode: 'accept_edits' } })))
  afterEach(() => f.close())

  async function callApproved(name: string, args: unknown): Promise<ToolCallResult> {
    try {
      return await f.call(name, args)
    } catch (error) {
      if (!(error instanceof PermissionRequiredError)) throw error
      f.presenters.permissions.decide(error.request, 'once')
      return f.call(name, args)
    }
  }

  it('say so in their effects, and none of them is marked read-only', async () => {
    const changed = new Set<string>()
    const calls: [string, unknown][] = [
      ['skill_list', {}],
      ['skill_view', { name: 'deepchat-settings' }],
      ['deepchat_settings_read', {}],
      ['deepchat_settings_set_tools', { enable: ['tape_info'] }]
    ]
    for (const [name, args] of calls) {
      const result = await callApproved(name, args)
      expect(result.rawData.isError, name).toBe(false)
      if (result.rawData.effects?.toolsChanged) changed.add(name)
      const tool = manager.get(name)!
      if (tool.readOnly) expect(result.rawData.effects, name).toBeUndefined()
    }
    expect([...changed]).toEqual(['skill_view', 'deepchat_settings_set_tools'])
    for (const name of changed) expect(manager.get(name)!.readOnly, name).toBe(false)
    // ...and the loop sees the change once.
    expect(f.presenters.tools.takeToolsChanged(f.sessionId)).toBe(true)
    expect(f.presenters.tools.takeToolsChanged(f.sessionId)).toBe(false)
  })
})

describe('the permission gate and the read-only fact', () => {
  let h: Harness
  beforeEach(() => (h = createHarness()))
  afterEach(() => h.close())

  it('refuses, never asks, when a read-only tool wants more than reading', async () => {
    const glob = h.tools.agentTools.get('glob')!
    const original = glob.checkPermission
    // A broken tool: read-only by its facts, yet asking to write.
    glob.checkPermission = () => ({
      type: 'write',
      tool: 'glob',
      server: 'agent-filesystem',
      sessionId: h.ctx.sessionId,
      risk: 'medium',
      reason: 'writes'
    })
    try {
      const result = await h.call('glob', { pattern: '*.txt' })
      expect(result.rawData.toolResult.error?.code).toBe('not_read_only')
    } finally {
      glob.checkPermission = original
    }
    // Asking to read stays an ordinary question for the user.
    await expect(h.call('read', { path: join(h.root, 'outside.txt') })).rejects.toBeInstanceOf(
      PermissionRequiredError
    )
  })
})
