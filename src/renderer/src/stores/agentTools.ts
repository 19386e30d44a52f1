import { defineStore } from 'pinia'
import { ref } from 'vue'
import { agentToolsList, agentToolsSetEnabled } from '@shared/contracts/routes/agentTools.routes'
import type { AgentToolInfo } from '@shared/types/agentTools'
import { useBridge } from '@renderer/api/bridge'
import { useLoadState } from './lib/loadState'
import { plain } from './lib/plain'

/** Built-in tools and their app-wide switches (what new chats start with). */
export const useAgentToolsStore = defineStore('agentTools', () => {
  const tools = ref<AgentToolInfo[]>([])
  const { error, loaded, track } = useLoadState()

  function apply(view: { tools: AgentToolInfo[] }): void {
    tools.value = view.tools
  }

  const load = () => track(async () => apply(await useBridge().call(agentToolsList, {})))

  async function setEnabled(name: string, enabled: boolean): Promise<void> {
    apply(await useBridge().call(agentToolsSetEnabled, plain({ name, enabled })))
  }

  return { tools, error, loaded, load, setEnabled }
})
