import { z } from 'zod'
import listDescription from './descriptions/skill_list.md?raw'
import viewDescription from './descriptions/skill_view.md?raw'
import { SKILLS_SERVER, ToolError, defineAgentTool, ok, type AgentTool, type ToolContext } from './defineTool'
import type { SkillPort } from '../runtimePorts'

const viewInput = z.strictObject({
  name: z.string().trim().min(1).max(64).describe('The skill name from skill_list'),
  file_path: z
    .string()
    .trim()
    .min(1)
    .max(1000)
    .optional()
    .describe('A file inside the skill folder, relative to it')
})

function skillsOf(ctx: ToolContext): SkillPort {
  if (!ctx.runtime.skills) throw new ToolError('unavailable', 'Skills are not available in this session.')
  return ctx.runtime.skills
}

export const skillListTool = defineAgentTool({
  name: 'skill_list',
  group: SKILLS_SERVER,
  labelKey: 'settingsAgentTools.labels.skill_list',
  readOnly: true,
  parallelSafe: true,
  description: listDescription,
  input: z.strictObject({}),
  available: ({ runtime }) => !!runtime.skills,
  checkPermission: () => null,
  async execute(_args, ctx) {
    const skills = await skillsOf(ctx).list(ctx.sessionId)
    const body = { skills, activeCount: skills.filter((s) => s.active).length, totalCount: skills.length }
    return ok(`${skills.length} skill(s)`, JSON.stringify(body, null, 2), body)
  }
})

/** Viewing a skill's SKILL.md activates it: the tools it unlocks are offered from the next request. */
export const skillViewTool = defineAgentTool({
  name: 'skill_view',
  group: SKILLS_SERVER,
  labelKey: 'settingsAgentTools.labels.skill_view',
  readOnly: false,
  parallelSafe: false,
  description: viewDescription,
  input: viewInput,
  available: ({ runtime }) => !!runtime.skills,
  checkPermission: () => null,
  async execute(args, ctx) {
    const skills = skillsOf(ctx)
    const view = await skills.view(ctx.sessionId, args.name, args.file_path).catch((error: unknown) => {
      // Keep the presenter's code (skill_not_found, outside_skill, file_too_large...) for the model.
      const code = (error as { code?: unknown }).code
      throw new ToolError(
        typeof code === 'string' ? code : 'skill_view_failed',
        error instanceof Error ? error.message : String(error)
      )
    })
    const activated = view.filePath === null ? skills.activate(ctx.sessionId, view.name) : false
    const header = [
      `Skill: ${view.name}${view.filePath ? ` — ${view.filePath}` : ''}`,
      `Folder: ${view.root}`,
      activated
        ? `Activated for this session${view.allowedTools.length ? `; tools it allows: ${view.allowedTools.join(', ')}` : ''}.`
        : null,
      view.filePath === null && view.linkedFiles.length
        ? `Files (read with file_path): ${view.linkedFiles.join(', ')}`
        : null
    ].filter(Boolean)
    const data = {
      name: view.name,
      filePath: view.filePath,
      linkedFiles: view.linkedFiles,
      allowedTools: view.allowedTools,
      activated
    }
    return {
      ...ok(
        activated ? `Activated skill ${view.name}` : `Viewed skill ${view.name}`,
        `${header.join('\n')}\n\n${view.content}`,
        data
      ),
      ...(activated ? { effects: { toolsChanged: true } } : {})
    }
  }
})

export const skillTools: AgentTool[] = [skillListTool, skillViewTool] as AgentTool[]
