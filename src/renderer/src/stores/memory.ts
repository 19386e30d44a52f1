import { defineStore } from 'pinia'
import { ref } from 'vue'
import {
  memoryForget,
  memoryList,
  memorySearch,
  memorySetEnabled,
  memoryUpdate
} from '@shared/contracts/routes/agentFeatures.routes'
import type { RouteOutput } from '@shared/contracts/define'
import { useBridge } from '@renderer/api/bridge'

export type Memory = RouteOutput<typeof memoryList>['memories'][number]

/** The app's own agent: the Memory page shows what it remembers. */
const AGENT_ID = 'deepchat'

/** What the assistant remembers across chats, as the Memory page shows it, and the memory switch. */
export const useMemoryStore = defineStore('memory', () => {
  const memories = ref<Memory[]>([])
  const enabled = ref(true)

  /** Every memory (newest first), or those matching `query` the way `memory_recall` finds them. */
  async function load(query = ''): Promise<void> {
    const bridge = useBridge()
    const q = query.trim()
    if (q) {
      memories.value = (await bridge.call(memorySearch, { agentId: AGENT_ID, query: q })).memories
    } else {
      const result = await bridge.call(memoryList, { agentId: AGENT_ID, limit: 500 })
      memories.value = result.memories
      enabled.value = result.settings.enabled
    }
  }

  async function update(memoryId: string, content: string): Promise<void> {
    await useBridge().call(memoryUpdate, { agentId: AGENT_ID, memoryId, content })
  }

  async function forget(memoryId: string): Promise<void> {
    await useBridge().call(memoryForget, { agentId: AGENT_ID, memoryId })
  }

  async function setEnabled(value: boolean): Promise<void> {
    enabled.value = (await useBridge().call(memorySetEnabled, { enabled: value })).settings.enabled
  }

  return { memories, enabled, load, update, forget, setEnabled }
})
