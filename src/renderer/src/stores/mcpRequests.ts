import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import {
  mcpElicitationRequested,
  mcpInteractionCancelled,
  mcpSamplingRequested
} from '@shared/contracts/events/mcp.events'
import { mcpAnswerElicitation, mcpAnswerSampling } from '@shared/contracts/routes/mcp.routes'
import type {
  McpElicitationAnswer,
  McpElicitationRequest,
  McpSamplingDecision,
  McpSamplingRequest
} from '@shared/types/mcp'
import { useBridge } from '@renderer/api/bridge'
import { plain } from './lib/plain'

export type McpRequest =
  { kind: 'elicitation'; request: McpElicitationRequest } | { kind: 'sampling'; request: McpSamplingRequest }

/** MCP servers' form (elicitation) and model (sampling) requests, answered one at a time, app-wide. */
export const useMcpRequestsStore = defineStore('mcpRequests', () => {
  const queue = ref<McpRequest[]>([])
  const current = computed(() => queue.value[0] ?? null)
  let unsubscribers: Array<() => void> = []

  function listen(): void {
    if (unsubscribers.length) return
    const bridge = useBridge()
    unsubscribers = [
      bridge.on(mcpElicitationRequested, ({ request }) => queue.value.push({ kind: 'elicitation', request })),
      bridge.on(mcpSamplingRequested, ({ request }) => queue.value.push({ kind: 'sampling', request })),
      bridge.on(mcpInteractionCancelled, ({ requestId }) => drop(requestId))
    ]
  }

  function drop(requestId: string): void {
    queue.value = queue.value.filter((p) => p.request.requestId !== requestId)
  }

  async function answerElicitation(requestId: string, answer: McpElicitationAnswer): Promise<void> {
    await useBridge().call(mcpAnswerElicitation, plain({ requestId, answer }))
    drop(requestId)
  }

  async function answerSampling(requestId: string, decision: McpSamplingDecision): Promise<void> {
    await useBridge().call(mcpAnswerSampling, plain({ requestId, decision }))
    drop(requestId)
  }

  function dispose(): void {
    unsubscribers.forEach((off) => off())
    unsubscribers = []
  }

  return { queue, current, listen, answerElicitation, answerSampling, dispose }
})
