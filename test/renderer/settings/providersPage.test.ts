import { describe, expect, it } from 'vitest'
import ProvidersSettings from '@renderer/pages/settings/ProvidersSettings.vue'
import { eventually, useSettingsPage } from './helpers'

const mountPage = useSettingsPage()
const KEY = 'sk-unit-test-key-1234abcd'

describe('Settings > Model providers', () => {
  it('adds a preset with a key that is stored but never shown, and toggles it', async () => {
    const { wrapper, bridge } = await mountPage(ProvidersSettings)
    expect(wrapper.find('[data-testid="providers-empty"]').exists()).toBe(true)
    await wrapper.get('[data-testid="provider-add"]').trigger('click')
    await wrapper.get('[data-testid="provider-preset"]').setValue('deepseek')
    await wrapper.get('[data-testid="provider-key"]').setValue(KEY)
    await wrapper.get('#provider-add-form').trigger('submit')
    await eventually(() =>
      expect(wrapper.get('[data-testid="provider-detail-name"]').text()).toBe('DeepSeek')
    )

    const [stored] = await bridge.presenters.llmProviders.listProviders()
    expect(stored).toMatchObject({ id: 'deepseek', hasApiKey: true, enabled: true })
    expect(wrapper.html()).not.toContain(KEY)
    expect((wrapper.get('[data-testid="provider-detail-key"]').element as HTMLInputElement).value).toBe('')
    expect(wrapper.get('[data-testid="provider-key-state"]').text()).toContain('abcd')
    expect(wrapper.findAll('[data-testid^="model-enabled-"]').length).toBe(2)

    await wrapper.get('[data-testid="provider-enabled-deepseek"]').setValue(false)
    await eventually(async () =>
      expect((await bridge.presenters.llmProviders.listProviders())[0].enabled).toBe(false)
    )

    // Deleting the key really deletes it.
    await wrapper.get('[data-testid="provider-clear-key"]').trigger('click')
    await eventually(async () =>
      expect((await bridge.presenters.llmProviders.listProviders())[0].hasApiKey).toBe(false)
    )
    expect(wrapper.get('[data-testid="provider-key-state"]').text()).toBe('No key stored.')
  })

  it('lists the presets not added yet; switching one on adds it, opening one preselects it in the add dialog', async () => {
    const { wrapper, bridge } = await mountPage(ProvidersSettings)
    const available = () =>
      wrapper
        .findAll('[data-testid^="provider-preset-item-"]')
        .map((b) => b.attributes('data-testid')!.replace('provider-preset-item-', ''))
    await eventually(() => expect(available()).toContain('ollama'))
    expect(available()).not.toContain('custom')
    expect(available()).toEqual(
      expect.arrayContaining([
        'openai',
        'anthropic',
        'gemini',
        'deepseek',
        'ollama',
        'lmstudio',
        'openrouter',
        'siliconflow'
      ])
    )

    await wrapper.get('[data-testid="provider-enabled-ollama"]').setValue(true)
    await eventually(async () =>
      expect((await bridge.presenters.llmProviders.listProviders()).map((p) => [p.id, p.enabled])).toEqual([
        ['ollama', true]
      ])
    )
    await eventually(() => expect(wrapper.get('[data-testid="provider-detail-name"]').text()).toBe('Ollama'))
    expect(available()).not.toContain('ollama')
    expect(wrapper.find('[data-testid="provider-item-ollama"]').exists()).toBe(true)

    await wrapper.get('[data-testid="provider-search"]').setValue('deep')
    expect(available()).toEqual(['deepseek'])
    await wrapper.get('[data-testid="provider-preset-item-deepseek"]').trigger('click')
    expect((wrapper.get('[data-testid="provider-preset"]').element as HTMLSelectElement).value).toBe(
      'deepseek'
    )
  })

  it('refuses a custom provider without a name, and with a bad URL shows main’s error', async () => {
    const { wrapper, bridge } = await mountPage(ProvidersSettings)
    await wrapper.get('[data-testid="provider-add"]').trigger('click')
    await wrapper.get('[data-testid="provider-preset"]').setValue('custom')
    await wrapper.get('#provider-add-form').trigger('submit')
    await eventually(() =>
      expect(wrapper.get('[data-testid="provider-add-error"]').text()).toBe('Give the provider a name.')
    )
    await wrapper.get('[data-testid="provider-name"]').setValue('Mine')
    await wrapper.get('[data-testid="provider-url"]').setValue('ftp://nope')
    await wrapper.get('#provider-add-form').trigger('submit')
    await eventually(() =>
      expect(wrapper.get('[data-testid="provider-add-error"]').text().length).toBeGreaterThan(0)
    )
    expect(await bridge.presenters.llmProviders.listProviders()).toEqual([])
  })

  // Fetching from a live provider is covered end-to-end (settings-providers.e2e): happy-dom's
  // fetch applies browser CORS rules to main-side requests, so it cannot reach the fake server here.
  it('edits one model’s settings, switches a model off and picks the default', async () => {
    const { wrapper, bridge } = await mountPage(ProvidersSettings)
    await bridge.presenters.llmProviders.addProvider({
      presetId: 'custom',
      name: 'Local',
      baseUrl: 'http://127.0.0.1:9/v1',
      models: [
        { id: 'm-one', name: 'Model one' },
        { id: 'm-two', name: 'Model two' }
      ].map((m) => ({
        ...m,
        contextLength: 8000,
        maxOutputTokens: 1000,
        vision: false,
        toolCalling: true,
        reasoning: false,
        enabled: true
      }))
    })
    await eventually(() => expect(wrapper.findAll('[data-testid^="model-enabled-"]').length).toBe(2))

    await wrapper.get('[data-testid="model-settings-m-one"]').trigger('click')
    await wrapper.get('#ctx-m-one').setValue('32000')
    await wrapper.get('[data-testid="model-cap-reasoning-m-one"]').setValue(true)
    await wrapper.get('#model-settings-m-one').trigger('submit')
    await eventually(async () =>
      expect(
        (await bridge.presenters.llmProviders.listProviders())[0].models.find((m) => m.id === 'm-one')
      ).toMatchObject({
        contextLength: 32000,
        reasoning: true
      })
    )
    expect(wrapper.get('[data-testid="model-m-one"]').text()).toContain('Reasoning')

    await wrapper.get('[data-testid="model-enabled-m-one"]').setValue(false)
    await eventually(async () =>
      expect((await bridge.presenters.llmProviders.listProviders())[0].models[0].enabled).toBe(false)
    )
    expect(wrapper.get('[data-testid="model-make-default-m-one"]').attributes('disabled')).toBeDefined()

    await wrapper.get('[data-testid="provider-new-model"]').setValue('m-three')
    await wrapper.get('[data-testid="provider-add-model"]').trigger('click')
    await eventually(() => expect(wrapper.find('[data-testid="model-m-three"]').exists()).toBe(true))
    expect((await bridge.presenters.llmProviders.listProviders())[0].models.map((m) => m.id)).toEqual([
      'm-one',
      'm-two',
      'm-three'
    ])
    await wrapper.get('[data-testid="provider-new-model"]').setValue('m-two')
    await wrapper.get('[data-testid="provider-add-model"]').trigger('click')
    await eventually(() =>
      expect(wrapper.get('[data-testid="provider-message"]').text()).toContain('already in the list')
    )

    await wrapper.get('[data-testid="model-make-default-m-two"]').trigger('click')
    await eventually(() => expect(wrapper.find('[data-testid="model-default-m-two"]').exists()).toBe(true))
    expect(bridge.presenters.llmProviders.getDefaultModel()).toMatchObject({ modelId: 'm-two' })
  })

  it('sets a provider’s idle timeout, refuses a bad one and returns to the default when emptied', async () => {
    const { wrapper, bridge } = await mountPage(ProvidersSettings)
    await bridge.presenters.llmProviders.addProvider({
      presetId: 'custom',
      name: 'Local',
      baseUrl: 'http://127.0.0.1:9/v1',
      models: []
    })
    const stored = async () => (await bridge.presenters.llmProviders.listProviders())[0]
    await eventually(() => expect(wrapper.find('[data-testid="provider-idle-timeout"]').exists()).toBe(true))
    expect(wrapper.get('[data-testid="provider-idle-timeout"]').attributes('placeholder')).toBe('60')

    await wrapper.get('[data-testid="provider-idle-timeout"]').setValue('240')
    await wrapper.get('[data-testid="provider-save"]').trigger('submit')
    await eventually(async () => expect((await stored()).idleTimeoutSeconds).toBe(240))

    await wrapper.get('[data-testid="provider-idle-timeout"]').setValue('0')
    await wrapper.get('[data-testid="provider-save"]').trigger('submit')
    await eventually(() =>
      expect(wrapper.get('[data-testid="provider-message"]').text()).toContain('from 1 to 3600')
    )
    expect((await stored()).idleTimeoutSeconds).toBe(240)

    await wrapper.get('[data-testid="provider-idle-timeout"]').setValue('')
    await wrapper.get('[data-testid="provider-save"]').trigger('submit')
    await eventually(async () => expect((await stored()).idleTimeoutSeconds).toBeUndefined())
  })
})
