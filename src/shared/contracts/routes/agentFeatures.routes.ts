import { z } from 'zod'
import { defineRoute } from '../define'

const MemoryView = z.object({
  id: z.string(),
  kind: z.enum(['semantic', 'episodic']),
  category: z.string().nullable(),
  content: z.string(),
  importance: z.number(),
  createdAt: z.number().int(),
  updatedAt: z.number().int()
})
const MemorySettingsView = z.object({ enabled: z.boolean(), disabledAgents: z.array(z.string()) })
const AgentId = z.string().min(1).max(200).default('deepchat')

/** An agent's memories, newest first, with the memory switch. */
export const memoryList = defineRoute({
  name: 'memory.list',
  input: z.object({ agentId: AgentId, limit: z.number().int().min(1).max(1000).default(100) }).strict(),
  output: z.object({ memories: z.array(MemoryView), settings: MemorySettingsView })
})

export const memoryForget = defineRoute({
  name: 'memory.forget',
  input: z.object({ agentId: AgentId, memoryId: z.string().min(1).max(100) }).strict(),
  output: z.object({ removed: z.boolean() })
})

/** The user edits a memory's text on the Memory page. */
export const memoryUpdate = defineRoute({
  name: 'memory.update',
  input: z
    .object({ agentId: AgentId, memoryId: z.string().min(1).max(100), content: z.string().min(1).max(4000) })
    .strict(),
  output: z.object({ memory: MemoryView })
})

/** Memories matching a query as `memory_recall` finds them, best first. */
export const memorySearch = defineRoute({
  name: 'memory.search',
  input: z.object({ agentId: AgentId, query: z.string().trim().min(1).max(500) }).strict(),
  output: z.object({ memories: z.array(MemoryView) })
})

/** Memory on or off for everyone, or (with agentId) for one agent. */
export const memorySetEnabled = defineRoute({
  name: 'memory.setEnabled',
  input: z.object({ enabled: z.boolean(), agentId: z.string().min(1).max(200).optional() }).strict(),
  output: z.object({ settings: MemorySettingsView })
})

const SkillView = z.object({
  name: z.string(),
  description: z.string(),
  allowedTools: z.array(z.string()),
  source: z.enum(['builtin', 'app', 'workspace']),
  root: z.string()
})

/** Skills for a workspace (or only built-in and app skills), plus folders that failed to load. */
export const skillsList = defineRoute({
  name: 'skills.list',
  input: z.object({ workspaceDir: z.string().max(4096).nullable().default(null) }).strict(),
  output: z.object({
    skills: z.array(SkillView),
    problems: z.array(z.object({ path: z.string(), message: z.string() })),
    /** Names switched off in Settings › Skills: chats do not see them. */
    disabled: z.array(z.string())
  })
})

const SkillName = z.string().min(1).max(64)

export const skillsSetEnabled = defineRoute({
  name: 'skills.setEnabled',
  input: z.object({ name: SkillName, enabled: z.boolean() }).strict(),
  output: z.object({ disabled: z.array(z.string()) })
})

/** Copies a skill folder (absolute path, with a SKILL.md) into the app's skills folder. */
export const skillsAddFromFolder = defineRoute({
  name: 'skills.addFromFolder',
  input: z.object({ folder: z.string().min(1).max(4096) }).strict(),
  output: z.object({ skill: SkillView })
})

export const skillsRead = defineRoute({
  name: 'skills.read',
  input: z.object({ name: SkillName }).strict(),
  output: z.object({ body: z.string() })
})

const ImageModel = z.object({ providerId: z.string().min(1).max(64), modelId: z.string().min(1).max(200) })

/** The model `image_generate` uses; null switches the tool off. */
export const imageGenerationGetModel = defineRoute({
  name: 'imageGeneration.getModel',
  input: z.object({}).strict(),
  output: z.object({ model: ImageModel.nullable() })
})

export const imageGenerationSetModel = defineRoute({
  name: 'imageGeneration.setModel',
  input: z.object({ model: ImageModel.nullable() }).strict(),
  output: z.object({ model: ImageModel.nullable() })
})
