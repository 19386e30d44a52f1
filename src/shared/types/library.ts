import { z } from 'zod'
import { GenerationSettings } from './session'

/**
 * The prompt library and assistants (Settings › Prompts, Settings › Assistants). Both are config
 * documents (`promptLibrary`, `assistants`): small, edited as a whole, never queried by field.
 */

const LibraryId = z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'letters, digits, - and _')

/** A saved prompt; `{{name}}` in its body is a variable the composer asks for when inserting it. */
export const SavedPrompt = z
  .object({
    id: LibraryId,
    /** What `/` shows and matches (`/summarize`). */
    name: z.string().trim().min(1).max(100),
    description: z.string().max(500).default(''),
    body: z.string().min(1).max(100_000)
  })
  .strict()
export type SavedPrompt = z.infer<typeof SavedPrompt>

export const SavedPromptInput = SavedPrompt.extend({ id: LibraryId.optional() }).strict()
export type SavedPromptInput = z.input<typeof SavedPromptInput>

/** A chat's parameters without the system prompt (an assistant keeps that on its own). */
export const GenerationParams = GenerationSettings.pick({
  temperature: true,
  topP: true,
  maxTokens: true,
  reasoningEffort: true
})
export type GenerationParams = z.infer<typeof GenerationParams>

/**
 * A named set of instructions, parameters, model and tools a new chat can start from. Absent
 * model: the chat's own choice (or the default). The switched-off tools and servers apply to
 * the chat it starts, which can switch them back on.
 */
export const Assistant = z
  .object({
    id: LibraryId,
    name: z.string().trim().min(1).max(100),
    description: z.string().max(500).default(''),
    systemPrompt: z.string().max(100_000).default(''),
    model: z
      .object({ providerId: z.string().min(1).max(200), modelId: z.string().min(1).max(200) })
      .strict()
      .nullable()
      .default(null),
    params: GenerationParams.default({}),
    disabledTools: z.array(z.string().min(1).max(100)).max(200).default([]),
    disabledMcpServers: z.array(z.string().min(1).max(200)).max(200).default([])
  })
  .strict()
export type Assistant = z.infer<typeof Assistant>

export const AssistantInput = Assistant.extend({ id: LibraryId.optional() }).strict()
export type AssistantInput = z.input<typeof AssistantInput>
