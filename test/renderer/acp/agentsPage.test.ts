import { describe, expect, it } from 'vitest'
import { acpLogAppended } from '@shared/contracts/events/acp.events'
import type { AcpLogEntry } from '@shared/types/acp'
import { MASKED_SECRET } from '@shared/types/mcp'
import AgentsSettings from '@renderer/pages/settings/AgentsSettings.vue'
import { useAcpStore } from '@renderer/stores/acp'
import { eventually, useSettingsPage } from '../settings/helpers'

const mountPage = useSettingsPage()

function logEntry(seq: number, method: string): AcpLogEntry {
  return {
    seq,
    at: Date.now(),
    workspaceDir: '/w',
    direction: 'out',
    kind: 'request',
    method,
    id: seq,
    bytes: 40,
    summary: '{}'
  }
}

describe('Settings › Agents', () => {
  it('lists the registry’s agents off, turns one on in main, and shows where each would start from', async () => {
    const { wrapper, bridge } = await mountPage(AgentsSettings)
    const card = wrapper.get('[data-testid="agent-card-claude-acp"]')
    expect(card.text()).toContain('Built in')
    const toggle = wrapper.get('[data-testid="agent-enabled-claude-acp"]')
    expect((toggle.element as HTMLInputElement).checked).toBe(false)
    await toggle.setValue(true)
    await eventually(() => expect(bridge.presenters.acp.getAgent('claude-acp').enabled).toBe(true))
    await eventually(
      () =>
        expect(
          wrapper.get('[data-testid="agent-install-claude-acp"]').attributes('data-status')
        ).toBeTruthy(),
      20_000
    )
    // Registry agents can only be turned off, not edited or removed.
    expect(wrapper.find('[data-testid="agent-remove-claude-acp"]').exists()).toBe(false)
  }, 30_000) // the install check reads the login shell's PATH: seconds on a busy machine

  it('adds a custom agent with a secret in its env (kept masked), and sets env overrides', async () => {
    const { wrapper, bridge } = await mountPage(AgentsSettings)
    await wrapper.get('[data-testid="agent-add"]').trigger('click')
    await wrapper.get('[data-testid="agent-form-name"]').setValue('My agent')
    await wrapper.get('[data-testid="agent-form-command"]').setValue('my-agent')
    await wrapper.get('[data-testid="agent-form-args"]').setValue('--acp\n--verbose')
    await wrapper.get('[data-testid="agent-form-env-add"]').trigger('click')
    await wrapper.get('[data-testid="agent-form-env-key-0"]').setValue('MY_API_KEY')
    await wrapper.get('[data-testid="agent-form-env-value-0"]').setValue('sk-very-secret')
    await wrapper.get('#agent-form').trigger('submit')
    await eventually(() => expect(wrapper.find('[data-testid="agent-form"]').exists()).toBe(false))
    const added = bridge.presenters.acp.listAgents().find((a) => a.name === 'My agent')!
    expect(added).toMatchObject({ source: 'custom', enabled: true, args: ['--acp', '--verbose'] })
    expect(added.env.MY_API_KEY).toBe(MASKED_SECRET)
    expect(wrapper.get(`[data-testid="agent-card-${added.id}"]`).text()).toContain('my-agent --acp --verbose')

    await wrapper.get(`[data-testid="agent-env-${added.id}"]`).trigger('click')
    await wrapper.get('[data-testid="agent-env-add"]').trigger('click')
    await wrapper.get('[data-testid="agent-env-key-0"]').setValue('AUTH_TOKEN')
    await wrapper.get('[data-testid="agent-env-value-0"]').setValue('token-123')
    await wrapper.get('[data-testid="agent-env-save"]').trigger('click')
    await eventually(() =>
      expect(bridge.presenters.acp.getAgent(added.id).envOverrides).toEqual({ AUTH_TOKEN: MASKED_SECRET })
    )
    expect(JSON.stringify(bridge.presenters.acp.listAgents())).not.toContain('token-123')
  })

  it('shows the protocol log main pushes while the dialog is open, and stops keeping it when closed', async () => {
    const { wrapper, bridge } = await mountPage(AgentsSettings)
    await bridge.presenters.acp.addCustomAgent({ id: 'fake', name: 'Fake agent', command: 'fake-agent' })
    await eventually(() => expect(wrapper.find('[data-testid="agent-card-fake"]').exists()).toBe(true))
    await wrapper.get('[data-testid="agent-log-fake"]').trigger('click')
    await eventually(() => expect(wrapper.find('[data-testid="agent-log-empty"]').exists()).toBe(true))
    // Entries reach the page as main's batched events (a real agent's are in the e2e test).
    bridge.presenters.events.emit(acpLogAppended, {
      agentId: 'fake',
      entries: [logEntry(1, 'initialize'), logEntry(2, 'session/new')]
    })
    await eventually(() =>
      expect(
        wrapper.findAll('[data-testid="agent-log-entries"] li').map((li) => li.attributes('data-method'))
      ).toEqual(['initialize', 'session/new'])
    )
    expect(wrapper.get('[data-testid="agent-log-entries"]').text()).toContain('sent')
    await wrapper.get('[data-testid="agent-log"] button').trigger('click')
    expect(useAcpStore().logs.fake).toBeUndefined()
  })
})
