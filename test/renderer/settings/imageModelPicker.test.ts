import { describe, expect, it } from 'vitest'
import ImageSettings from '@renderer/pages/settings/ImageSettings.vue'
import { isImageModelId } from '@shared/imageModels'
import { eventually, useSettingsPage } from './helpers'

const mountPage = useSettingsPage()

describe('Settings › Image generation: the model picker', () => {
  it('lists image models only; chat models come only on asking for all, and the choice is saved', async () => {
    const { wrapper, bridge } = await mountPage(ImageSettings)
    await bridge.presenters.llmProviders.addProvider({
      presetId: 'custom',
      name: 'Gateway',
      baseUrl: 'http://127.0.0.1:9/v1',
      models: ['gpt-4o', 'gpt-image-1', 'dall-e-3', 'deepseek-chat', 'black-forest-labs/FLUX.1-schnell'].map(
        (id) => ({ id, name: id })
      )
    })
    await bridge.presenters.llmProviders.addProvider({
      presetId: 'gemini',
      apiKey: 'gm-key-0123456789',
      models: ['gemini-2.5-flash', 'gemini-2.5-flash-image', 'imagen-4.0-generate-001'].map((id) => ({
        id,
        name: id
      }))
    })
    const options = () =>
      wrapper.findAll('[data-testid="image-model"] option').map((o) => o.text().split(' · ')[1] ?? o.text())
    await eventually(() => expect(options()).toContain('gpt-image-1'))
    expect(options().slice(1).sort()).toEqual(
      [
        'black-forest-labs/FLUX.1-schnell',
        'dall-e-3',
        'gemini-2.5-flash-image',
        'gpt-image-1',
        'imagen-4.0-generate-001'
      ].sort()
    )

    await wrapper.get('[data-testid="image-show-all"]').setValue(true)
    expect(wrapper.get('[data-testid="image-model"] optgroup').attributes('label')).toBe('Other models')
    expect(options()).toEqual(expect.arrayContaining(['gpt-4o', 'deepseek-chat', 'gemini-2.5-flash']))

    const select = wrapper.get('[data-testid="image-model"]')
    const value = (
      select.findAll('option').find((o) => o.text().endsWith('dall-e-3'))!.element as HTMLOptionElement
    ).value
    await select.setValue(value)
    await eventually(() =>
      expect(wrapper.get('[data-testid="image-status"]').text()).toContain('can now generate')
    )
  })

  it('knows image models by their vendors’ names, and no chat model as one', () => {
    for (const id of [
      'gpt-image-1',
      'dall-e-2',
      'imagen-3.0-generate-002',
      'gemini-2.0-flash-preview-image-generation',
      'gemini-2.5-flash-image-preview',
      'Kwai-Kolors/Kolors',
      'stabilityai/stable-diffusion-3-5-large',
      'qwen-image'
    ])
      expect(isImageModelId(id), id).toBe(true)
    for (const id of [
      'gpt-4o',
      'gpt-4.1-mini',
      'claude-sonnet-4',
      'gemini-2.5-pro',
      'deepseek-reasoner',
      'llama3.1:8b',
      'o4-mini',
      'text-embedding-3-small'
    ])
      expect(isImageModelId(id), id).toBe(false)
  })
})
