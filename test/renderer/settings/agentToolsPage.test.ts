import { describe, expect, it } from 'vitest'
import AgentToolsSettings from '@renderer/pages/settings/AgentToolsSettings.vue'
import { eventually, useSettingsPage } from './helpers'

const mountPage = useSettingsPage()

describe('Settings > Agent tools', () => {
  it('lists the built-in tools grouped, switches one off and back on', async () => {
    const { wrapper, bridge } = await mountPage(AgentToolsSettings)
    await eventually(() =>
      expect(wrapper.findAll('[data-testid^="agent-tool-enabled-"]').length).toBe(
        bridge.presenters.tools.agentTools.catalog().length
      )
    )
    expect(wrapper.text()).toContain('Files and commands')
    expect(wrapper.get('[data-testid="agent-tool-read"]').text()).toContain('Read-only')
    expect(wrapper.get('[data-testid="agent-tool-write"]').text()).toContain('Makes changes')

    await wrapper.get('[data-testid="agent-tool-enabled-write"]').setValue(false)
    await eventually(() =>
      expect(bridge.presenters.config.getSettings().disabledAgentTools).toEqual(['write'])
    )
    await wrapper.get('[data-testid="agent-tool-enabled-write"]').setValue(true)
    await eventually(() => expect(bridge.presenters.config.getSettings().disabledAgentTools).toEqual([]))
  })
})
