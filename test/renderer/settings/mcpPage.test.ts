import { describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import McpSettings from '@renderer/pages/settings/McpSettings.vue'
import { McpOAuthProvider } from '../../../src/main/presenter/mcpPresenter/oauth'
import { eventually, useSettingsPage } from './helpers'

const mountPage = useSettingsPage()

describe('Settings > MCP servers', () => {
  it('shows the built-in server reaching running through status events, and filters by state and text', async () => {
    const { wrapper } = await mountPage(McpSettings)
    await eventually(() =>
      expect(wrapper.get('[data-testid="mcp-status-deepchat-time"]').attributes('data-state')).toBe('running')
    )
    expect(wrapper.get('[data-testid="mcp-card-deepchat-time"]').text()).toContain('Time')

    await wrapper.get('[data-testid="mcp-filter-error"]').trigger('click')
    expect(wrapper.find('[data-testid="mcp-card-deepchat-time"]').exists()).toBe(false)
    expect(wrapper.find('[data-testid="mcp-no-match"]').exists()).toBe(true)
    await wrapper.get('[data-testid="mcp-filter-running"]').trigger('click')
    expect(wrapper.find('[data-testid="mcp-card-deepchat-time"]').exists()).toBe(true)
    await wrapper.get('[data-testid="mcp-search"]').setValue('zone conversion')
    expect(wrapper.find('[data-testid="mcp-card-deepchat-time"]').exists()).toBe(true)
    await wrapper.get('[data-testid="mcp-search"]').setValue('nothing like this')
    expect(wrapper.find('[data-testid="mcp-card-deepchat-time"]').exists()).toBe(false)
  })

  it('saves the tool search threshold to the settings, and refuses one out of range', async () => {
    const { wrapper, bridge } = await mountPage(McpSettings)
    const field = wrapper.get('[data-testid="mcp-tool-search-threshold"]')
    await eventually(() => expect((field.element as HTMLInputElement).value).toBe('100'))
    await field.setValue('40')
    await wrapper.get('[data-testid="mcp-tool-search"]').trigger('submit')
    await eventually(() => expect(bridge.presenters.config.getSettings().mcpToolSearchThreshold).toBe(40))
    await field.setValue('3')
    await wrapper.get('[data-testid="mcp-tool-search"]').trigger('submit')
    await eventually(() =>
      expect(wrapper.get('[data-testid="mcp-tool-search-status"]').text()).toMatch(/10|too small|>=/i)
    )
    expect(bridge.presenters.config.getSettings().mcpToolSearchThreshold).toBe(40)
  })

  it('switching a server off stops it, and the card follows', async () => {
    const { wrapper, bridge } = await mountPage(McpSettings)
    await eventually(() =>
      expect(wrapper.get('[data-testid="mcp-status-deepchat-time"]').attributes('data-state')).toBe('running')
    )
    await wrapper.get('[data-testid="mcp-enabled-deepchat-time"]').setValue(false)
    await eventually(() =>
      expect(wrapper.get('[data-testid="mcp-status-deepchat-time"]').attributes('data-state')).toBe('stopped')
    )
    expect(bridge.presenters.mcp.listServers().find((s) => s.id === 'deepchat-time')?.enabled).toBe(false)
  })

  it('adds a server from the form with masked secrets, and shows a validation error from main', async () => {
    const { wrapper, bridge } = await mountPage(McpSettings)
    await wrapper.get('[data-testid="mcp-add"]').trigger('click')
    await wrapper.get('[data-testid="mcp-form-name"]').setValue('Remote')
    await wrapper.get('[data-testid="mcp-form-type"]').setValue('http')
    await wrapper.get('[data-testid="mcp-form-url"]').setValue('not a url')
    await wrapper.get('#mcp-server-form').trigger('submit')
    await eventually(() => expect(wrapper.get('[data-testid="mcp-form-error"]').text()).toMatch(/url/i))
    expect(bridge.presenters.mcp.listServers().some((s) => s.name === 'Remote')).toBe(false)

    await wrapper.get('[data-testid="mcp-form-url"]').setValue('http://127.0.0.1:9/mcp')
    await wrapper.get('[data-testid="mcp-header-add"]').trigger('click')
    await wrapper.get('[data-testid="mcp-header-key-0"]').setValue('Authorization')
    await wrapper.get('[data-testid="mcp-header-value-0"]').setValue('Bearer very-secret-token')
    await wrapper.get('[data-testid="mcp-form-enabled"]').setValue(false)
    await wrapper.get('#mcp-server-form').trigger('submit')
    await eventually(() => expect(wrapper.find('[data-testid="mcp-form"]').exists()).toBe(false))
    const stored = bridge.presenters.mcp.listServers().find((s) => s.name === 'Remote')!
    expect(stored.type).toBe('http')
    expect(stored.secretKeys.headers).toEqual(['Authorization'])
    expect(JSON.stringify(stored)).not.toContain('very-secret-token')

    // Editing shows the masked value, never the secret.
    await wrapper.get(`[data-testid="mcp-edit-${stored.id}"]`).trigger('click')
    const value = wrapper.get('[data-testid="mcp-header-value-0"]')
    expect((value.element as HTMLInputElement).value).not.toContain('very-secret-token')
    expect(value.attributes('type')).toBe('password')
  })

  it('runs a tool from the tools panel through the permission gate once auto-approve is off', async () => {
    const { wrapper, bridge } = await mountPage(McpSettings)
    await eventually(() =>
      expect(wrapper.get('[data-testid="mcp-status-deepchat-time"]').attributes('data-state')).toBe('running')
    )
    await wrapper.get('[data-testid="mcp-open-deepchat-time"]').trigger('click')
    await eventually(() => expect(wrapper.find('[data-testid="mcp-tool-current_time"]').exists()).toBe(true))

    await wrapper.get('[data-testid="mcp-tool-auto-current_time"]').setValue(false)
    await eventually(() =>
      expect(
        bridge.presenters.mcp.listServers().find((s) => s.id === 'deepchat-time')?.autoApproveTools
      ).not.toContain('current_time')
    )

    await wrapper.get('[data-testid="mcp-tool-try-current_time"]').trigger('click')
    await wrapper.get('[data-testid="param-timezone"]').setValue('UTC')
    await wrapper.get('[data-testid="tool-runner-current_time"]').trigger('submit')
    await eventually(() =>
      expect(wrapper.find('[data-testid="tool-approval-current_time"]').exists()).toBe(true)
    )
    expect(wrapper.find('[data-testid="tool-result-current_time"]').exists()).toBe(false)

    // "Allow once" runs this call and remembers nothing: the next run asks again.
    await wrapper.get('[data-testid="tool-allow-once-current_time"]').trigger('click')
    await eventually(() =>
      expect(wrapper.get('[data-testid="tool-result-current_time"]').text()).toContain('UTC')
    )
    expect(bridge.presenters.permissions.listRules()).toEqual([])
    await wrapper.get('[data-testid="tool-runner-current_time"]').trigger('submit')
    await eventually(() =>
      expect(wrapper.find('[data-testid="tool-approval-current_time"]').exists()).toBe(true)
    )

    await wrapper.get('[data-testid="tool-allow-always-current_time"]').trigger('click')
    await eventually(() =>
      expect(wrapper.get('[data-testid="tool-result-current_time"]').text()).toContain('UTC')
    )
    expect(bridge.presenters.permissions.listRules()).toMatchObject([
      { kind: 'mcp', pattern: 'deepchat-time/current_time', effect: 'allow' }
    ])

    // A bad time zone comes back as a tool error, shown as such.
    await wrapper.get('[data-testid="param-timezone"]').setValue('Mars/Olympus')
    await wrapper.get('[data-testid="tool-runner-current_time"]').trigger('submit')
    await eventually(() =>
      expect(wrapper.get('[data-testid="tool-result-current_time"]').text()).toContain('Unknown time zone')
    )
    expect(wrapper.get('[data-testid="tool-result-current_time"]').text()).toContain(
      'The tool reported an error.'
    )
  }, 20_000)

  it('imports servers from Claude Desktop JSON and reports the ones it skipped', async () => {
    const { wrapper, bridge } = await mountPage(McpSettings)
    await wrapper.get('[data-testid="mcp-import-open"]').trigger('click')
    const json = JSON.stringify({
      mcpServers: { a: { command: 'node', args: ['x.js'] }, b: { url: 'http://127.0.0.1:9/mcp' }, c: {} }
    })
    await wrapper.get('[data-testid="mcp-import-json"]').setValue(json)
    await wrapper.get('#mcp-import-form').trigger('submit')
    await eventually(() =>
      expect(wrapper.get('[data-testid="mcp-import-result"]').text()).toContain('2 servers imported')
    )
    expect(wrapper.get('[data-testid="mcp-import-result"]').text()).toContain('Skipped “c”')
    expect(bridge.presenters.mcp.listServers().map((s) => s.name)).toEqual(expect.arrayContaining(['a', 'b']))

    await wrapper.get('[data-testid="mcp-import-json"]').setValue('{ not json')
    await wrapper.get('#mcp-import-form').trigger('submit')
    await eventually(() => expect(wrapper.find('[data-testid="mcp-import-error"]').exists()).toBe(true))
  })

  it('shows the OAuth state of a remote server and signs out', async () => {
    const { wrapper, bridge } = await mountPage(McpSettings)
    const server = await bridge.presenters.mcp.addServer({
      name: 'Remote',
      type: 'http',
      url: 'http://127.0.0.1:9/mcp',
      enabled: false
    })
    await eventually(() => expect(wrapper.find(`[data-testid="mcp-open-${server.id}"]`).exists()).toBe(true))
    await wrapper.get(`[data-testid="mcp-open-${server.id}"]`).trigger('click')
    await eventually(() => expect(wrapper.find('[data-testid="mcp-oauth-signed-out"]').exists()).toBe(true))
    await wrapper.get('[data-testid="dialog-close"]').trigger('click')

    const key = McpOAuthProvider.secretKey(server.id)
    await bridge.presenters.config.setSecret(
      key,
      JSON.stringify({ tokens: { access_token: 'tok', token_type: 'Bearer' } })
    )
    await wrapper.get(`[data-testid="mcp-open-${server.id}"]`).trigger('click')
    await eventually(() => expect(wrapper.find('[data-testid="mcp-oauth-signed-in"]').exists()).toBe(true))
    await wrapper.get('[data-testid="mcp-oauth-sign-out"]').trigger('click')
    await eventually(() => expect(wrapper.find('[data-testid="mcp-oauth-signed-out"]').exists()).toBe(true))
    expect(await bridge.presenters.config.getSecret(key)).toBeUndefined()

    // The built-in (in-memory) server has no OAuth, so nothing is shown for it.
    await wrapper.get('[data-testid="dialog-close"]').trigger('click')
    await wrapper.get('[data-testid="mcp-open-deepchat-time"]').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="mcp-oauth"]').exists()).toBe(false)
  })
})
