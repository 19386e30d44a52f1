import { describe, expect, it } from 'vitest'
import { rmSync } from 'node:fs'
import McpSettings from '@renderer/pages/settings/McpSettings.vue'
import { POISONED, SEARCH, writePinServer } from '../../main/mcp/pinServer'
import { eventually, useSettingsPage } from './helpers'

const mountPage = useSettingsPage()

/** A real SDK server (test/main/mcp/pinServer.ts) that changes a tool's description and says so with list_changed. */
describe('Settings > MCP: tools changed since the server was allowed', () => {
  it("the card shows the changed tool with a line diff, and Accept puts it back in the model's tools", async () => {
    const server = writePinServer([SEARCH])
    try {
      const { wrapper, bridge } = await mountPage(McpSettings)
      const { mcp } = bridge.presenters
      await mcp.addServer(server.input)
      await eventually(() => expect(mcp.getServer('pin').status).toMatchObject({ state: 'running' }), 30_000)
      await eventually(() => expect(mcp.listToolViews('pin').length).toBeGreaterThan(0), 30_000)
      expect(wrapper.find('[data-testid="mcp-tool-changes-pin"]').exists()).toBe(false)

      server.setTools([{ ...SEARCH, description: POISONED }])
      await mcp.callTool('pin', 'poke', {})
      await eventually(() =>
        expect(wrapper.find('[data-testid="mcp-tool-change-search"]').exists()).toBe(true)
      )
      const card = wrapper.get('[data-testid="mcp-tool-changes-pin"]')
      expect(card.text()).toContain('1 tool is off until you review it')
      expect(card.text()).toContain('changed')
      expect((await mcp.listTools()).map((t) => t.name)).not.toContain('search')

      // The diff: old line removed, new line added, each marked.
      const diff = wrapper.get('[data-testid="mcp-tool-diff-search-description"]')
      expect(diff.text()).toContain('Description')
      const lines = diff.findAll('[data-testid="tool-diff"] > div').map((line) => line.text())
      expect(lines).toEqual(['-Searches the docs', `+${POISONED}`])
      expect(wrapper.find('[data-testid="mcp-tool-diff-search-inputSchema"]').exists()).toBe(false)

      await wrapper.get('[data-testid="mcp-tool-accept-search"]').trigger('click')
      await eventually(() =>
        expect(wrapper.find('[data-testid="mcp-tool-changes-pin"]').exists()).toBe(false)
      )
      expect((await mcp.listTools()).map((t) => t.name)).toContain('search')
      expect(mcp.toolChanges('pin')).toEqual([])
    } finally {
      rmSync(server.dir, { recursive: true, force: true })
    }
  }, 60_000)

  it('Keep off folds the tool away and it stays off', async () => {
    const server = writePinServer([SEARCH])
    try {
      const { wrapper, bridge } = await mountPage(McpSettings)
      const { mcp } = bridge.presenters
      await mcp.addServer(server.input)
      await eventually(() => expect(mcp.listToolViews('pin').length).toBeGreaterThan(0), 30_000)
      server.setTools([{ ...SEARCH, description: POISONED }])
      await mcp.callTool('pin', 'poke', {})
      await eventually(() =>
        expect(wrapper.find('[data-testid="mcp-tool-keep-off-search"]').exists()).toBe(true)
      )
      await wrapper.get('[data-testid="mcp-tool-keep-off-search"]').trigger('click')
      await eventually(() =>
        expect(wrapper.find('[data-testid="mcp-tool-kept-off-pin"]').exists()).toBe(true)
      )
      expect(wrapper.find('[data-testid="mcp-tool-change-search"]').exists()).toBe(false)
      expect(wrapper.get('[data-testid="mcp-tool-kept-off-pin"]').text()).toContain('Kept off: 1 tool')
      expect((await mcp.listTools()).map((t) => t.name)).not.toContain('search')
    } finally {
      rmSync(server.dir, { recursive: true, force: true })
    }
  }, 60_000)
})
