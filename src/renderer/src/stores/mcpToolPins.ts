import { defineStore } from 'pinia'
import { ref } from 'vue'
import {
  mcpAcceptToolChanges,
  mcpKeepToolsOff,
  mcpToolChanges
} from '@shared/contracts/routes/mcpToolPins.routes'
import { mcpToolPinsChanged } from '@shared/contracts/events/mcpToolPins.events'
import type { McpToolChange } from '@shared/types/mcpToolPins'
import { useBridge } from '@renderer/api/bridge'
import { plain } from './lib/plain'

/**
 * Tools an MCP server holds off for review (changed since the user allowed the server, or new),
 * per server. Main announces every change of that set, so a card re-reads only its server.
 */
export const useMcpToolPinsStore = defineStore('mcpToolPins', () => {
  const changes = ref<Record<string, McpToolChange[]>>({})
  const unsubscribers: Array<() => void> = []

  function subscribe(): void {
    if (unsubscribers.length) return
    unsubscribers.push(
      useBridge().on(mcpToolPinsChanged, ({ serverId }) => {
        if (serverId in changes.value) void load(serverId)
      })
    )
  }

  const set = (serverId: string, list: McpToolChange[]) => {
    changes.value = { ...changes.value, [serverId]: list }
    return list
  }

  async function load(serverId: string): Promise<McpToolChange[]> {
    subscribe()
    return set(serverId, (await useBridge().call(mcpToolChanges, plain({ serverId }))).changes)
  }

  /** Pins exactly what was shown: each tool goes with the hash of the definition on screen. */
  async function accept(serverId: string, shown: McpToolChange[]): Promise<void> {
    const tools = shown.map(({ name, hash }) => ({ name, hash }))
    set(serverId, (await useBridge().call(mcpAcceptToolChanges, plain({ serverId, tools }))).changes)
  }

  async function keepOff(serverId: string, names: string[]): Promise<void> {
    set(serverId, (await useBridge().call(mcpKeepToolsOff, plain({ serverId, names }))).changes)
  }

  function dispose(): void {
    unsubscribers.splice(0).forEach((off) => off())
  }

  return { changes, load, accept, keepOff, dispose }
})
