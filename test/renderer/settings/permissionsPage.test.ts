import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createAppI18n } from '@renderer/i18n'
import { useRealBridge } from '../helpers/realBridge'
import PermissionsSettings from '@renderer/pages/settings/PermissionsSettings.vue'
import { usePermissionsStore } from '@renderer/stores/permissions'
import { eventually, useSettingsPage } from './helpers'

const mountPage = useSettingsPage()
let bridge: ReturnType<typeof useRealBridge> | undefined
afterEach(async () => {
  await bridge?.dispose()
  bridge = undefined
})

describe('Settings > Permissions', () => {
  it('says which sandbox guards unasked commands, and warns plainly when there is none', async () => {
    const { wrapper, bridge } = await mountPage(PermissionsSettings)
    const real = await bridge.presenters.sandbox.status()
    await eventually(() =>
      expect(wrapper.get('[data-testid="sandbox-status"]').attributes('data-available')).toBe(
        String(real.available)
      )
    )
    if (real.available) expect(wrapper.get('[data-testid="sandbox-status"]').text()).toContain('Sandbox on')
    const socketGuardText = () => wrapper.get('[data-testid="sandbox-socket-guard"]').text()
    // Where there is a sandbox, sockets are guarded too (bwrap here loads the seccomp filter).
    if (real.available)
      expect(socketGuardText()).toContain(
        real.kind === 'seatbelt' ? 'refused by the macOS sandbox profile' : 'refused by a seccomp filter'
      )
    usePermissionsStore().sandbox = { kind: 'bwrap', available: true, socketGuard: 'none' }
    await eventually(() => expect(socketGuardText()).toContain('not guarded on this machine'))
    usePermissionsStore().sandbox = { kind: 'seatbelt', available: true, socketGuard: 'seatbelt' }
    await eventually(() => expect(socketGuardText()).toContain('refused by the macOS sandbox profile'))
    usePermissionsStore().sandbox = {
      kind: 'none',
      available: false,
      reason: 'bubblewrap (bwrap) is not installed.',
      socketGuard: 'none'
    }
    await eventually(() =>
      expect(wrapper.get('[data-testid="sandbox-status"]').text()).toContain('No sandbox')
    )
    expect(wrapper.get('[data-testid="sandbox-status"]').text()).toContain(
      'bubblewrap (bwrap) is not installed.'
    )
    expect(wrapper.get('[data-testid="sandbox-status"]').text()).toContain(
      'Only the command classifier guards them'
    )
    expect(wrapper.find('[data-testid="sandbox-socket-guard"]').exists()).toBe(false)
  })

  it('lists remembered rules from the back end and revokes one', async () => {
    const { wrapper, bridge } = await mountPage(PermissionsSettings)
    expect(wrapper.find('[data-testid="rules-empty"]').exists()).toBe(true)
    bridge.presenters.permissions.addRule({ kind: 'exec', pattern: 'npm test*', effect: 'allow' })
    bridge.presenters.permissions.addRule({ kind: 'read', pattern: '~/secret/**', effect: 'deny' })
    await usePermissionsStore().load()
    await eventually(() => expect(wrapper.findAll('[data-rule-row]').length).toBe(2))
    const rows = wrapper.findAll('[data-rule-row]')
    // Deny rules first: they win.
    expect(rows.map((r) => r.get('[data-testid="rule-pattern"]').text())).toEqual([
      '~/secret/**',
      'npm test*'
    ])
    expect(rows[0].text()).toContain('Deny')
    expect(rows[1].text()).toContain('Run commands')

    const allow = bridge.presenters.permissions.listRules().find((r) => r.pattern === 'npm test*')!
    await wrapper.get(`[data-testid="rule-revoke-${allow.id}"]`).trigger('click')
    await eventually(() => expect(wrapper.findAll('[data-rule-row]').length).toBe(1))
    expect(bridge.presenters.permissions.listRules().map((r) => r.pattern)).toEqual(['~/secret/**'])
  })

  it('adds a rule from the form and refuses an empty pattern', async () => {
    const { wrapper, bridge } = await mountPage(PermissionsSettings)
    await wrapper.get('[data-testid="rule-new-kind"]').setValue('mcp')
    await wrapper.get('[data-testid="rule-new-effect"]').setValue('deny')
    await wrapper.get('[data-testid="rule-new-pattern"]').setValue('github/*')
    await wrapper.get('[data-testid="rule-form"]').trigger('submit')
    await eventually(() => expect(wrapper.findAll('[data-rule-row]').length).toBe(1))
    expect(bridge.presenters.permissions.listRules()).toMatchObject([
      { kind: 'mcp', pattern: 'github/*', effect: 'deny' }
    ])

    await wrapper.get('[data-testid="rule-new-pattern"]').setValue('   ')
    await wrapper.get('[data-testid="rule-form"]').trigger('submit')
    await eventually(() =>
      expect(wrapper.get('[data-testid="permissions-status"]').classes().join(' ')).toContain('red')
    )
    expect(bridge.presenters.permissions.listRules()).toHaveLength(1)
  })

  it('saves the default permission mode for new sessions in settings', async () => {
    const { wrapper, bridge } = await mountPage(PermissionsSettings)
    await eventually(() =>
      expect(
        (wrapper.get('[data-testid="permission-mode-default"]').element as HTMLInputElement).checked
      ).toBe(true)
    )
    await wrapper.get('[data-testid="permission-mode-full_access"]').setValue(true)
    await eventually(() =>
      expect(bridge.presenters.config.getSettings().defaultPermissionMode).toBe('full_access')
    )
    expect(wrapper.get('[data-testid="permissions-status"]').text()).toBe('Saved')
  })

  it('passes the variable names the user allows to commands and servers, and refuses what is not a name', async () => {
    const { wrapper, bridge } = await mountPage(PermissionsSettings)
    await eventually(() => expect(wrapper.find('[data-testid="allowed-env-empty"]').exists()).toBe(true))
    const add = async (name: string) => {
      await wrapper.get('[data-testid="allowed-env-name"]').setValue(name)
      await wrapper.get('[data-testid="allowed-env"] form').trigger('submit')
    }
    await add('SSH_AUTH_SOCK')
    await eventually(() =>
      expect(bridge.presenters.config.getSettings().allowedEnvVariables).toEqual(['SSH_AUTH_SOCK'])
    )
    await add(' HTTPS_PROXY ')
    await eventually(() => expect(wrapper.findAll('[data-allowed-env]').length).toBe(2))
    expect(bridge.presenters.config.getSettings().allowedEnvVariables).toEqual([
      'SSH_AUTH_SOCK',
      'HTTPS_PROXY'
    ])
    expect(wrapper.get('[data-testid="allowed-env-status"]').text()).toContain('HTTPS_PROXY')

    await add('X=1; curl evil')
    await eventually(() =>
      expect(wrapper.get('[data-testid="allowed-env-status"]').text()).toContain('is not a variable name')
    )
    expect(bridge.presenters.config.getSettings().allowedEnvVariables).toHaveLength(2)

    await wrapper.get('[data-testid="allowed-env-remove-SSH_AUTH_SOCK"]').trigger('click')
    await eventually(() =>
      expect(bridge.presenters.config.getSettings().allowedEnvVariables).toEqual(['HTTPS_PROXY'])
    )
    expect(wrapper.findAll('[data-allowed-env]').map((row) => row.text())).toEqual([
      expect.stringContaining('HTTPS_PROXY')
    ])
  })

  it('words why there is no sandbox in the user’s language, not main’s English', async () => {
    bridge = useRealBridge()
    setActivePinia(createPinia())
    const wrapper = mount(PermissionsSettings, { global: { plugins: [createAppI18n('zh-CN')] } })
    await flushPromises()
    usePermissionsStore().sandbox = {
      kind: 'none',
      available: false,
      reason: 'bubblewrap (bwrap) is not installed',
      reasonCode: 'bwrap_missing',
      socketGuard: 'none'
    }
    await eventually(() =>
      expect(wrapper.get('[data-testid="sandbox-status"]').text()).toContain('未安装 bubblewrap（bwrap）。')
    )
    expect(wrapper.get('[data-testid="sandbox-status"]').text()).not.toContain('is not installed')
    wrapper.unmount()
  })
})
