import { randomUUID } from 'node:crypto'
import { z } from 'zod'
import { AppError } from '@shared/errors'
import {
  Assistant,
  AssistantInput,
  SavedPrompt,
  SavedPromptInput,
  type AssistantInput as AssistantDraft,
  type SavedPromptInput as SavedPromptDraft
} from '@shared/types/library'
import type { GenerationSettings } from '@shared/types/session'
import type { ConfigPresenter } from '../configPresenter'

const PROMPTS_KEY = 'promptLibrary'
const ASSISTANTS_KEY = 'assistants'
const MAX_ITEMS = 500

const PromptList = z.array(SavedPrompt).max(MAX_ITEMS)
const AssistantList = z.array(Assistant).max(MAX_ITEMS)

/** What a new chat starts with (see AgentRuntimeDeps.newChatSetup). */
export interface ChatStart {
  model?: { providerId: string; modelId: string }
  generationSettings: GenerationSettings
  assistant: Assistant | null
}

/**
 * Saved prompts (inserted with `/` in the composer) and assistants (chosen when a chat starts),
 * kept as two config documents. Names of prompts are unique, so `/name` finds one.
 */
export class LibraryPresenter {
  constructor(
    private readonly deps: {
      config: Pick<ConfigPresenter, 'getDocument' | 'setDocument' | 'getSettings'>
      newId?: () => string
    }
  ) {}

  listPrompts(): SavedPrompt[] {
    return this.deps.config.getDocument(PROMPTS_KEY, PromptList, [])
  }

  savePrompt(input: SavedPromptDraft): SavedPrompt {
    const draft = parse(SavedPromptInput, input)
    const prompts = this.listPrompts()
    const clash = prompts.find((p) => p.name.toLowerCase() === draft.name.toLowerCase() && p.id !== draft.id)
    if (clash) throw new AppError('duplicate_name', `A prompt named "${draft.name}" exists already.`)
    const prompt = SavedPrompt.parse({ ...draft, id: draft.id ?? this.newId() })
    this.deps.config.setDocument(PROMPTS_KEY, PromptList, upsert(prompts, prompt))
    return prompt
  }

  deletePrompt(id: string): boolean {
    const prompts = this.listPrompts()
    const rest = prompts.filter((p) => p.id !== id)
    if (rest.length !== prompts.length) this.deps.config.setDocument(PROMPTS_KEY, PromptList, rest)
    return rest.length !== prompts.length
  }

  listAssistants(): Assistant[] {
    return this.deps.config.getDocument(ASSISTANTS_KEY, AssistantList, [])
  }

  saveAssistant(input: AssistantDraft): Assistant {
    const draft = parse(AssistantInput, input)
    const assistants = this.listAssistants()
    if (assistants.some((a) => a.name.toLowerCase() === draft.name.toLowerCase() && a.id !== draft.id))
      throw new AppError('duplicate_name', `An assistant named "${draft.name}" exists already.`)
    const assistant = Assistant.parse({ ...draft, id: draft.id ?? this.newId() })
    this.deps.config.setDocument(ASSISTANTS_KEY, AssistantList, upsert(assistants, assistant))
    return assistant
  }

  deleteAssistant(id: string): boolean {
    const assistants = this.listAssistants()
    const rest = assistants.filter((a) => a.id !== id)
    if (rest.length !== assistants.length) this.deps.config.setDocument(ASSISTANTS_KEY, AssistantList, rest)
    return rest.length !== assistants.length
  }

  /** Settings' defaults, or the assistant's instructions, parameters and model. */
  chatStart(assistantId: string | undefined): ChatStart {
    if (!assistantId)
      return { generationSettings: this.deps.config.getSettings().defaultGenerationSettings, assistant: null }
    const assistant = this.listAssistants().find((a) => a.id === assistantId)
    if (!assistant)
      throw new AppError('assistant_not_found', 'That assistant no longer exists: pick another one or none.')
    return {
      ...(assistant.model ? { model: assistant.model } : {}),
      generationSettings: {
        ...assistant.params,
        ...(assistant.systemPrompt.trim() ? { systemPrompt: assistant.systemPrompt } : {})
      },
      assistant
    }
  }

  private newId(): string {
    return (this.deps.newId ?? (() => randomUUID().slice(0, 8)))()
  }
}

function upsert<T extends { id: string }>(list: T[], item: T): T[] {
  const index = list.findIndex((x) => x.id === item.id)
  if (index < 0) {
    if (list.length >= MAX_ITEMS) throw new AppError('invalid_input', `At most ${MAX_ITEMS} entries.`)
    return [...list, item]
  }
  return list.map((x, i) => (i === index ? item : x))
}

function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new AppError('invalid_input', z.prettifyError(parsed.error))
  return parsed.data
}
