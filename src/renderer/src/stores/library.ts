import { defineStore } from 'pinia'
import { ref } from 'vue'
import {
  libraryDeleteAssistant,
  libraryDeletePrompt,
  libraryListAssistants,
  libraryListPrompts,
  librarySaveAssistant,
  librarySavePrompt
} from '@shared/contracts/routes/library.routes'
import type { Assistant, AssistantInput, SavedPrompt, SavedPromptInput } from '@shared/types/library'
import { useBridge } from '@renderer/api/bridge'
import { plain } from './lib/plain'

/** Saved prompts (the composer's `/` menu) and assistants (the new-chat picker), from main. */
export const useLibraryStore = defineStore('library', () => {
  const prompts = ref<SavedPrompt[]>([])
  const assistants = ref<Assistant[]>([])

  async function load(): Promise<void> {
    const bridge = useBridge()
    const [p, a] = await Promise.all([
      bridge.call(libraryListPrompts, {}),
      bridge.call(libraryListAssistants, {})
    ])
    prompts.value = p.prompts
    assistants.value = a.assistants
  }

  async function savePrompt(prompt: SavedPromptInput): Promise<SavedPrompt> {
    const saved = (await useBridge().call(librarySavePrompt, plain({ prompt }))).prompt
    prompts.value = upsert(prompts.value, saved)
    return saved
  }

  async function deletePrompt(id: string): Promise<void> {
    await useBridge().call(libraryDeletePrompt, { id })
    prompts.value = prompts.value.filter((p) => p.id !== id)
  }

  async function saveAssistant(assistant: AssistantInput): Promise<Assistant> {
    const saved = (await useBridge().call(librarySaveAssistant, plain({ assistant }))).assistant
    assistants.value = upsert(assistants.value, saved)
    return saved
  }

  async function deleteAssistant(id: string): Promise<void> {
    await useBridge().call(libraryDeleteAssistant, { id })
    assistants.value = assistants.value.filter((a) => a.id !== id)
  }

  return { prompts, assistants, load, savePrompt, deletePrompt, saveAssistant, deleteAssistant }
})

function upsert<T extends { id: string }>(list: T[], item: T): T[] {
  return list.some((x) => x.id === item.id) ? list.map((x) => (x.id === item.id ? item : x)) : [...list, item]
}
