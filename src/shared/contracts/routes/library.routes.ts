import { z } from 'zod'
import { defineRoute } from '../define'
import { Assistant, AssistantInput, SavedPrompt, SavedPromptInput } from '../../types/library'
import { AttachmentView } from '../../types/attachments'

const Id = z.string().min(1).max(100)

export const libraryListPrompts = defineRoute({
  name: 'library.listPrompts',
  input: z.object({}).strict(),
  output: z.object({ prompts: z.array(SavedPrompt) })
})

/** Adds a prompt (no id) or replaces the one with this id. Names are unique (case-insensitive). */
export const librarySavePrompt = defineRoute({
  name: 'library.savePrompt',
  input: z.object({ prompt: SavedPromptInput }).strict(),
  output: z.object({ prompt: SavedPrompt })
})

export const libraryDeletePrompt = defineRoute({
  name: 'library.deletePrompt',
  input: z.object({ id: Id }).strict(),
  output: z.object({ deleted: z.boolean() })
})

export const libraryListAssistants = defineRoute({
  name: 'library.listAssistants',
  input: z.object({}).strict(),
  output: z.object({ assistants: z.array(Assistant) })
})

export const librarySaveAssistant = defineRoute({
  name: 'library.saveAssistant',
  input: z.object({ assistant: AssistantInput }).strict(),
  output: z.object({ assistant: Assistant })
})

export const libraryDeleteAssistant = defineRoute({
  name: 'library.deleteAssistant',
  input: z.object({ id: Id }).strict(),
  output: z.object({ deleted: z.boolean() })
})

/**
 * An MCP prompt used as a `/` command: the text for the composer and the attachments for its
 * non-text parts (images, embedded resources, resource links).
 */
export const libraryExpandMcpPrompt = defineRoute({
  name: 'library.expandMcpPrompt',
  input: z
    .object({
      serverId: z.string().min(1).max(200),
      name: z.string().min(1).max(200),
      args: z.record(z.string().max(200), z.string().max(100_000)).default({})
    })
    .strict(),
  output: z.object({ text: z.string(), attachments: z.array(AttachmentView) })
})
