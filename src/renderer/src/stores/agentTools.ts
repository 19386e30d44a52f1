import { defineStore } from 'pinia'
import { ref } from 'vue'
import { agentToolsList, agentToolsSetEnabled } from '@shared/contracts/routes/agentTools.routes'
import { sessionsOfferedTools } from '@shared/contracts/routes/sessions.routes'
import type { AgentToolInfo, OfferedTools } from '@shared/types/agentTools'
import { useBridge } from '@renderer/api/bridge'
import { useLoadState } from './lib/loadState'
import { plain } from './lib/plain'

/** Built-in tools and their app-wide switches (what new chats start with), and what a chat is offered. */
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

  /** The tools a chat's next request carries, as the back end decides them. */
  function offeredIn(sessionId: string): Promise<OfferedTools> {
    return useBridge().call(sessionsOfferedTools, { sessionId })
  }

  return { tools, error, loaded, load, setEnabled, offeredIn }
})
