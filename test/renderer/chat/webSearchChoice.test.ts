import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createAppI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/stores/chat'
import { useAppStore } from '@renderer/stores/app'
import ToolsPopover from '@renderer/components/chat/input/ToolsPopover.vue'
import WebSearchSettings from '@renderer/pages/settings/WebSearchSettings.vue'
import WebSourcesBlock from '@renderer/components/chat/blocks/WebSourcesBlock.vue'
import { useRealBridge } from '../helpers/realBridge'
import { eventually } from '../settings/helpers'

let bridge: ReturnType<typeof useRealBridge> | undefined
let unmount: (() => void) | undefined
afterEach(async () => {
  unmount?.()
  unmount = undefined
  useChatStore().dispose()
  await bridge?.dispose()
  bridge = undefined
  document.body.innerHTML = ''
})

function mountWith<P extends Record<string, unknown>>(component: unknown, props: P) {
  const wrapper = mount(component as never, {
    props: props as never,
    global: { plugins: [createAppI18n('en-US')] },
    attachTo: document.body
  })
  unmount = () => wrapper.unmount()
  return wrapper
}

async function chatWithModel(providerKind: 'anthropic' | 'openai', modelId: string): Promise<string> {
  const b = bridge!
  await b.presenters.llmProviders.addProvider({
    id: providerKind,
    kind: providerKind,
    name: providerKind,
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: 'sk-test-0123456789abcd',
    models: [{ id: modelId, name: modelId }]
  })
  const session = b.presenters.sessions.create({ title: 'a chat', providerId: providerKind, modelId })
  await useChatStore().open(session.id)
  return session.id
}

async function openTools(sessionId: string | null) {
  const wrapper = mountWith(ToolsPopover, { sessionId })
  await flushPromises()
  await wrapper.get('[data-testid="tools-button"]').trigger('click')
  await eventually(() => expect(wrapper.find('[data-testid="tools-web-search"]').exists()).toBe(true))
  await eventually(() =>
    expect(wrapper.get('[data-testid="web-search-mode-app"]').attributes('disabled')).toBeUndefined()
  )
  return wrapper
}

describe('choosing how a chat searches the web', () => {
  it("a chat whose model has its provider's search can switch to it; the chat's own setting stores the choice", async () => {
    bridge = useRealBridge()
    setActivePinia(createPinia())
    const sessionId = await chatWithModel('anthropic', 'claude-sonnet-4-5')
    const tools = await openTools(sessionId)
    const provider = tools.get('[data-testid="web-search-mode-provider"]')
    expect((tools.get('[data-testid="web-search-mode-app"]').element as HTMLInputElement).checked).toBe(true)
    expect(provider.attributes('disabled')).toBeUndefined()
    await provider.setValue(true)
    await eventually(() =>
      expect(bridge!.presenters.sessions.get(sessionId)?.generationSettings.webSearch).toBe('provider')
    )
    await tools.get('[data-testid="web-search-mode-off"]').setValue(true)
    await eventually(() =>
      expect(bridge!.presenters.sessions.get(sessionId)?.generationSettings.webSearch).toBe('off')
    )
  })

  it("a model without its provider's search cannot pick it, and the popover says the app's engine is used", async () => {
    bridge = useRealBridge()
    setActivePinia(createPinia())
    const sessionId = await chatWithModel('openai', 'gpt-3.5-turbo')
    const tools = await openTools(sessionId)
    expect(tools.get('[data-testid="web-search-mode-provider"]').attributes('disabled')).toBeDefined()
    expect(tools.get('[data-testid="web-search-no-native"]').text()).toContain('OpenAI, Gemini, Anthropic')
  })

  it('before a chat exists the choice is the app-wide default, the same one Settings › Web search saves', async () => {
    bridge = useRealBridge()
    setActivePinia(createPinia())
    const tools = await openTools(null)
    await tools.get('[data-testid="web-search-mode-provider"]').setValue(true)
    await eventually(() => expect(bridge!.presenters.web.settings().mode).toBe('provider'))
    unmount?.()

    const page = mountWith(WebSearchSettings, {})
    await eventually(() =>
      expect((page.get('[data-testid="web-mode"]').element as HTMLSelectElement).value).toBe('provider')
    )
    await page.get('[data-testid="web-mode"]').setValue('off')
    await page.get('[data-testid="web-save"]').trigger('submit')
    await eventually(() => expect(bridge!.presenters.web.settings().mode).toBe('off'))
  })
})

describe("the sources block of a provider's own search", () => {
  it('lists the http(s) sources kept on the answer and opens them through the one opener; other links are not shown', async () => {
    const pinia = createPinia()
    setActivePinia(pinia)
    const opened: string[] = []
    vi.spyOn(useAppStore(), 'openExternal').mockImplementation(async (url: string) => {
      opened.push(url)
      return { opened: true }
    })
    const block = mount(WebSourcesBlock, {
      props: {
        sources: [
          { index: 1, title: 'Kyoto autumn', site: 'kyoto.example', url: 'https://kyoto.example/autumn' },
          { index: 2, title: 'Sneaky', site: 'x', url: 'javascript:alert(1)' },
          { index: 3, title: 'Maple', site: 'forecast.example', url: 'http://forecast.example/maple' }
        ]
      },
      global: { plugins: [pinia, createAppI18n('en-US')] },
      attachTo: document.body
    })
    unmount = () => block.unmount()
    const links = block.findAll('[data-testid="web-source-link"]')
    expect(links.map((l) => l.text())).toEqual(['Kyoto autumn', 'Maple'])
    expect(block.html()).not.toContain('javascript:')
    await links[0].trigger('click')
    expect(opened).toEqual(['https://kyoto.example/autumn'])
  })
})
