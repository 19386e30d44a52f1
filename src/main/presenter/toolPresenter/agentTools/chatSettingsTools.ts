import { z } from 'zod'
import { PermissionMode, isWiderMode, type PermissionRequest } from '@shared/types/permission'
import readDescription from './descriptions/deepchat_settings_read.md?raw'
import modelDescription from './descriptions/deepchat_settings_set_model.md?raw'
import temperatureDescription from './descriptions/deepchat_settings_set_temperature.md?raw'
import promptDescription from './descriptions/deepchat_settings_set_system_prompt.md?raw'
import modeDescription from './descriptions/deepchat_settings_set_permission_mode.md?raw'
import toolsDescription from './descriptions/deepchat_settings_set_tools.md?raw'
import { SettingsPermissionService } from '../../permission/settingsPermissionService'
import {
  SETTINGS_SERVER,
  ToolError,
  defineAgentTool,
  ok,
  type AgentTool,
  type ToolContext,
  type ToolScope
} from './defineTool'
import type { ChatSettingsPatch, ChatSettingsPort, ChatSettingsView } from '../runtimePorts'

/** The built-in skill that unlocks these tools. */
export const SETTINGS_SKILL = 'deepchat-settings'
const settingsPermissions = new SettingsPermissionService()

const available = ({ runtime, sessionId }: ToolScope) =>
  !!runtime.sessionSettings && !!runtime.toolState?.(sessionId).activeSkills.includes(SETTINGS_SKILL)

function port(ctx: ToolContext): ChatSettingsPort {
  if (!ctx.runtime.sessionSettings)
    throw new ToolError('unavailable', 'Chat settings are not available in this session.')
  return ctx.runtime.sessionSettings
}

function ask(ctx: ToolContext, tool: string, setting: string, summary: string): PermissionRequest {
  return settingsPermissions.check({
    sessionId: ctx.sessionId,
    tool,
    server: SETTINGS_SERVER,
    setting,
    summary
  })
}

/** Applies a patch and reports the setting's value before and after. */
async function apply(ctx: ToolContext, id: keyof ChatSettingsView, patch: ChatSettingsPatch) {
  const settings = port(ctx)
  const before = await settings.read(ctx.sessionId)
  let after: ChatSettingsView
  try {
    after = await settings.update(ctx.sessionId, patch)
  } catch (error) {
    throw new ToolError('apply_failed', error instanceof Error ? error.message : String(error))
  }
  const result = {
    ok: true,
    id,
    value: after[id],
    previousValue: before[id],
    appliedAt: new Date().toISOString()
  }
  return ok(`Set ${id}`, JSON.stringify(result, null, 2), result)
}

export const settingsReadTool = defineAgentTool({
  name: 'deepchat_settings_read',
  group: SETTINGS_SERVER,
  labelKey: 'settingsAgentTools.labels.deepchat_settings_read',
  readOnly: true,
  parallelSafe: true,
  description: readDescription,
  input: z.strictObject({}),
  available,
  checkPermission: () => null,
  async execute(_args, ctx) {
    const view = await port(ctx).read(ctx.sessionId)
    return ok('Read chat settings', JSON.stringify(view, null, 2), view)
  }
})

const modelInput = z.strictObject({
  providerId: z.string().trim().min(1).max(64),
  modelId: z.string().trim().min(1).max(200)
})
export const settingsSetModelTool = defineAgentTool({
  name: 'deepchat_settings_set_model',
  group: SETTINGS_SERVER,
  labelKey: 'settingsAgentTools.labels.deepchat_settings_set_model',
  readOnly: false,
  parallelSafe: false,
  description: modelDescription,
  input: modelInput,
  available,
  checkPermission: (args, ctx) =>
    ask(ctx, 'deepchat_settings_set_model', 'model', `use ${args.providerId}/${args.modelId}`),
  async execute(args, ctx) {
    const result = await apply(ctx, 'modelId', { model: args })
    return { ...result, data: { ...(result.data as object), providerId: args.providerId } }
  }
})

const temperatureInput = z.strictObject({
  temperature: z.number().min(0).max(2).nullable().describe('0..2, or null for the model default')
})
export const settingsSetTemperatureTool = defineAgentTool({
  name: 'deepchat_settings_set_temperature',
  group: SETTINGS_SERVER,
  labelKey: 'settingsAgentTools.labels.deepchat_settings_set_temperature',
  readOnly: false,
  parallelSafe: false,
  description: temperatureDescription,
  input: temperatureInput,
  available,
  checkPermission: (args, ctx) =>
    ask(
      ctx,
      'deepchat_settings_set_temperature',
      'temperature',
      `set to ${args.temperature ?? 'model default'}`
    ),
  execute: async (args, ctx) => apply(ctx, 'temperature', { temperature: args.temperature })
})

const promptInput = z.strictObject({
  systemPrompt: z.string().max(100_000).describe('The whole new system prompt; empty clears it')
})
export const settingsSetSystemPromptTool = defineAgentTool({
  name: 'deepchat_settings_set_system_prompt',
  group: SETTINGS_SERVER,
  labelKey: 'settingsAgentTools.labels.deepchat_settings_set_system_prompt',
  readOnly: false,
  parallelSafe: false,
  description: promptDescription,
  input: promptInput,
  available,
  checkPermission: (args, ctx) =>
    ask(
      ctx,
      'deepchat_settings_set_system_prompt',
      'systemPrompt',
      args.systemPrompt ? `replace it (${args.systemPrompt.length} chars)` : 'clear it'
    ),
  execute: async (args, ctx) => apply(ctx, 'systemPrompt', { systemPrompt: args.systemPrompt })
})

const modeInput = z.strictObject({ permissionMode: PermissionMode })
/** Only narrower: a model may give up its own permissions, never widen them. Narrowing needs no approval. */
export const settingsSetPermissionModeTool = defineAgentTool({
  name: 'deepchat_settings_set_permission_mode',
  group: SETTINGS_SERVER,
  labelKey: 'settingsAgentTools.labels.deepchat_settings_set_permission_mode',
  readOnly: false,
  parallelSafe: false,
  description: modeDescription,
  input: modeInput,
  available,
  checkPermission: () => null,
  async execute(args, ctx) {
    const current = (await port(ctx).read(ctx.sessionId)).permissionMode
    if (isWiderMode(args.permissionMode, current)) {
      throw new ToolError(
        'widening_not_allowed',
        `The permission mode can only be narrowed (it is ${current}); only the user can widen it.`
      )
    }
    return apply(ctx, 'permissionMode', { permissionMode: args.permissionMode })
  }
})

const toolsInput = z
  .strictObject({
    enable: z.array(z.string().min(1).max(100)).max(50).default([]).describe('Built-in tools to switch on'),
    disable: z.array(z.string().min(1).max(100)).max(50).default([]).describe('Built-in tools to switch off')
  })
  .refine((a) => a.enable.length + a.disable.length > 0, {
    message: 'name at least one tool to enable or disable'
  })
  .refine((a) => !a.enable.some((n) => a.disable.includes(n)), {
    message: 'a tool cannot be both enabled and disabled'
  })
export const settingsSetToolsTool = defineAgentTool({
  name: 'deepchat_settings_set_tools',
  group: SETTINGS_SERVER,
  labelKey: 'settingsAgentTools.labels.deepchat_settings_set_tools',
  readOnly: false,
  parallelSafe: false,
  description: toolsDescription,
  input: toolsInput,
  available,
  checkPermission: (args, ctx) =>
    ask(
      ctx,
      'deepchat_settings_set_tools',
      'tools',
      [
        args.enable.length ? `enable ${args.enable.join(', ')}` : '',
        args.disable.length ? `disable ${args.disable.join(', ')}` : ''
      ]
        .filter(Boolean)
        .join('; ')
    ),
  async execute(args, ctx) {
    const before = await port(ctx).read(ctx.sessionId)
    const disabled = new Set(before.disabledTools)
    const enabled = new Set(before.enabledTools)
    for (const name of args.enable) {
      disabled.delete(name)
      enabled.add(name)
    }
    for (const name of args.disable) {
      enabled.delete(name)
      disabled.add(name)
    }
    const result = await apply(ctx, 'disabledTools', {
      disabledTools: [...disabled],
      enabledTools: [...enabled]
    })
    return { ...result, effects: { toolsChanged: true } }
  }
})

export const chatSettingsTools: AgentTool[] = [
  settingsReadTool,
  settingsSetModelTool,
  settingsSetTemperatureTool,
  settingsSetSystemPromptTool,
  settingsSetPermissionModeTool,
  settingsSetToolsTool
] as AgentTool[]
