import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import McpSettings from '@renderer/pages/settings/McpSettings.vue'
import { hostileServerInput } from '../../main/mcp/hostileServer'
import { eventually, useSettingsPage } from './helpers'

const mountPage = useSettingsPage()
let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

// One good tool and one whose input schema is not an object schema.
const BROKEN_SERVER = {
  capabilities: { tools: {} },
  body: `
server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: [
  { name: 'fine', inputSchema: { type: 'object' } },
  { name: 'broken', inputSchema: { type: 'string' } }
] }))
`
}

describe('Settings > MCP: a server with a broken tool', () => {
  it('its card says which tool was left out and why', async () => {
    const { wrapper, bridge } = await mountPage(McpSettings)
    dir = mkdtempSync(join(tmpdir(), 'mcp-skipped-'))
    await bridge.presenters.mcp.addServer({ ...hostileServerInput(dir, 'brk', BROKEN_SERVER), enabled: true })
    await eventually(
      () => expect(wrapper.find('[data-testid="mcp-skipped-brk"]').exists()).toBe(true),
      20_000
    )
    const skipped = wrapper.get('[data-testid="mcp-skipped-brk"]').text()
    expect(skipped).toContain('1 tool left out: its definition is broken')
    expect(skipped).toContain('broken')
    expect(skipped).toMatch(/inputSchema\.type: /)
    expect(skipped).not.toContain('fine')
  }, 30_000)
})
