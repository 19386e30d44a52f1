import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createAppI18n } from '@renderer/i18n'
import AgentsSettings from '@renderer/pages/settings/AgentsSettings.vue'
import McpSettings from '@renderer/pages/settings/McpSettings.vue'
import { useAcpStore } from '@renderer/stores/acp'
import { useRealBridge } from '../helpers/realBridge'
import { eventually } from '../settings/helpers'

let bridge: ReturnType<typeof useRealBridge> | undefined
let unmount: (() => void) | undefined
afterEach(async () => {
  unmount?.()
  unmount = undefined
  await bridge?.dispose()
  bridge = undefined
})

async function mountIn(page: object, locale: 'en-US' | 'zh-CN') {
  bridge = useRealBridge()
  setActivePinia(createPinia())
  const wrapper = mount(page, { global: { plugins: [createAppI18n(locale)] }, attachTo: document.body })
  unmount = () => wrapper.unmount()
  await flushPromises()
  return wrapper
}

const cardIds = (wrapper: ReturnType<typeof mount>) =>
  wrapper
    .findAll('[data-testid^="agent-card-"]')
    .map((c) => c.attributes('data-testid')!.slice('agent-card-'.length))

describe('Settings › Agents: order and warnings', () => {
  it('puts the user’s own agents first; a missing program is a warning only for an agent that is on', async () => {
    const wrapper = await mountIn(AgentsSettings, 'en-US')
    await eventually(() => expect(cardIds(wrapper).length).toBeGreaterThan(5))
    await bridge!.presenters.acp.addCustomAgent({ id: 'mine', name: 'Mine', command: 'no-such-agent-xyz' })
    await eventually(() => expect(cardIds(wrapper)[0]).toBe('mine'))

    // The same "not found" for a switched-off registry agent and an enabled custom one.
    const store = useAcpStore()
    const missing = {
      status: 'missing' as const,
      launcher: 'command' as const,
      command: 'x',
      args: [],
      resolvedPath: null,
      detail: 'Not found: x'
    }
    store.install['mine'] = { ...missing }
    store.install['claude-acp'] = { ...missing }
    await flushPromises()
    expect(wrapper.find('[data-testid="agent-missing-mine"]').exists()).toBe(true)
    expect(wrapper.get('[data-testid="agent-install-mine"]').classes().join(' ')).toMatch(/text-red/)
    expect(wrapper.find('[data-testid="agent-missing-claude-acp"]').exists()).toBe(false)
    expect(wrapper.get('[data-testid="agent-install-claude-acp"]').classes().join(' ')).not.toMatch(
      /text-red/
    )
  })
})

describe('Shipped descriptions in Chinese', () => {
  it('translates the registry agents’ and built-in MCP servers’ descriptions, but not one the user wrote', async () => {
    const agents = await mountIn(AgentsSettings, 'zh-CN')
    await eventually(() =>
      expect(agents.get('[data-testid="agent-card-claude-acp"]').text()).toContain('Anthropic 的 Claude Code')
    )
    expect(agents.get('[data-testid="agent-card-gemini"]').text()).not.toContain('in ACP mode')
    unmount?.()
    await bridge?.dispose()

    const mcp = await mountIn(McpSettings, 'zh-CN')
    await eventually(() =>
      expect(mcp.get('[data-testid="mcp-card-deepchat-time"]').text()).toContain('当前时间与时区换算')
    )
    await bridge!.presenters.mcp.updateServer('deepchat-time', { description: 'My own words' })
    await eventually(() =>
      expect(mcp.get('[data-testid="mcp-card-deepchat-time"]').text()).toContain('My own words')
    )
  })
})
