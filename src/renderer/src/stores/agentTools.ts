import { defineStore } from 'pinia'
import { ref } from 'vue'
import { agentToolsList, agentToolsSetEnabled } from '@shared/contracts/routes/agentTools.routes'
import type { AgentToolInfo } from '@shared/types/agentTools'
import { useBridge } from '@renderer/api/bridge'

/** Route inputs leave as plain data: Vue proxies cannot cross Electron's structured clone. */
function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T
}

export const useAgentToolsStore = defineStore('agentTools', () => {
  const tools = ref<AgentToolInfo[]>([])
  const error = ref<string | null>(null)
  const loaded = ref(false)

  function apply(view: { tools: AgentToolInfo[] }): void {
    tools.value = view.tools
  }

  async function load(): Promise<void> {
    try {
      apply(await useBridge().call(agentToolsList, {}))
      error.value = null
    } catch (e) {
      error.value = e instanceof Error ? e.message : String(e)
    } finally {
      loaded.value = true
    }
  }

  async function setEnabled(name: string, enabled: boolean): Promise<void> {
    apply(await useBridge().call(agentToolsSetEnabled, plain({ name, enabled })))
  }

  return { tools, error, loaded, load, setEnabled }
})
