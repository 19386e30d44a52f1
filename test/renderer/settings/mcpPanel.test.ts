import { describe, expect, it } from 'vitest'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import McpSettings from '@renderer/pages/settings/McpSettings.vue'
import { eventually, useSettingsPage } from './helpers'

const TEST_SERVER = join(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'testServer.mjs')
const mountPage = useSettingsPage()

/** A real stdio MCP server (test/fixtures/mcp/testServer.mjs): it logs to stderr and offers a prompt. */
describe('Settings > MCP servers: the server panel and card actions', () => {
  it("shows the server's stderr tail, switches a tool off, gets a prompt and restarts the server", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deepchat-mcp-panel-'))
    const startLog = join(dir, 'starts.log')
    const starts = () => readFileSync(startLog, 'utf8').trim().split('\n').length
    try {
      const { wrapper, bridge } = await mountPage(McpSettings)
      const { mcp } = bridge.presenters
      const server = await mcp.addServer({
        name: 'Fixture',
        type: 'stdio',
        command: process.execPath,
        args: [TEST_SERVER],
        env: { START_LOG: startLog },
        enabled: true
      })
      const state = () => wrapper.get(`[data-testid="mcp-status-${server.id}"]`).attributes('data-state')
      await eventually(() => expect(state()).toBe('running'))
      expect(starts()).toBe(1)

      // The stderr tail, in the panel's logs tab.
      await wrapper.get(`[data-testid="mcp-open-${server.id}"]`).trigger('click')
      await wrapper.get('[data-testid="mcp-tab-logs"]').trigger('click')
      await eventually(() =>
        expect(wrapper.get('[data-testid="mcp-stderr"]').text()).toMatch(/test-server ready pid=\d+/)
      )

      // A tool switched off is stored in the server's config and reads as off.
      await wrapper.get('[data-testid="mcp-tab-tools"]').trigger('click')
      await eventually(() => expect(wrapper.find('[data-testid="mcp-tool-echo"]').exists()).toBe(true))
      // The name the model calls it by, from the server's slug.
      expect(server.slug).toBe(server.id)
      expect(wrapper.get('[data-testid="mcp-tool-exposed-echo"]').text()).toContain(`${server.slug}__echo`)
      await wrapper.get('[data-testid="mcp-tool-enabled-echo"]').setValue(false)
      await eventually(() =>
        expect(mcp.listServers().find((s) => s.id === server.id)?.disabledTools).toEqual(['echo'])
      )
      await eventually(() =>
        expect(
          (wrapper.get('[data-testid="mcp-tool-enabled-echo"]').element as HTMLInputElement).checked
        ).toBe(false)
      )

      // The prompts viewer fills the prompt's arguments and shows the messages the server returns.
      await wrapper.get('[data-testid="mcp-tab-prompts"]').trigger('click')
      await eventually(() => expect(wrapper.find('[data-testid="mcp-prompt-greet"]').exists()).toBe(true))
      await wrapper.get('[data-testid="mcp-prompt-greet"]').trigger('click')
      await wrapper.get('#prompt-arg-who').setValue('Ada')
      await wrapper.get('[data-testid="mcp-prompts-tab"] form').trigger('submit')
      await eventually(() =>
        expect(wrapper.get('[data-testid="mcp-prompt-result"]').text()).toContain('Hello Ada')
      )
      expect(wrapper.get('[data-testid="mcp-prompt-result"]').text()).toContain('User')
      await wrapper.get('[data-testid="dialog-close"]').trigger('click')

      // Restart starts a new process, and the card comes back to running.
      await wrapper.get(`[data-testid="mcp-restart-${server.id}"]`).trigger('click')
      await eventually(() => expect(starts()).toBe(2))
      await eventually(() => expect(state()).toBe('running'))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 30_000)
})
