import { describe, expect, it } from 'vitest'
import PromptsSettings from '@renderer/pages/settings/PromptsSettings.vue'
import AssistantsSettings from '@renderer/pages/settings/AssistantsSettings.vue'
import { eventually, useSettingsPage } from './helpers'

const mountPage = useSettingsPage()

describe('Settings > Prompts', () => {
  it('saves a prompt, shows its variables, edits and deletes it', async () => {
    const { wrapper, bridge } = await mountPage(PromptsSettings)
    await eventually(() => expect(wrapper.find('[data-testid="prompts-empty"]').exists()).toBe(true))
    await wrapper.get('[data-testid="prompt-add"]').trigger('click')
    await wrapper.get('[data-testid="prompt-name"]').setValue('translate')
    await wrapper.get('[data-testid="prompt-body"]').setValue('Translate into {{language}}: {{text}}')
    expect(wrapper.get('[data-testid="prompt-form"]').text()).toContain('language, text')
    await wrapper.get('[data-testid="prompt-form"]').trigger('submit')
    await eventually(() =>
      expect(bridge.presenters.library.listPrompts()).toEqual([
        expect.objectContaining({ name: 'translate', body: 'Translate into {{language}}: {{text}}' })
      ])
    )
    await eventually(() => expect(wrapper.find('[data-testid="prompt-row-translate"]').exists()).toBe(true))

    const row = wrapper.get('[data-testid="prompt-row-translate"]')
    await row.findAll('button')[0].trigger('click')
    await wrapper.get('[data-testid="prompt-name"]').setValue('to-french')
    await wrapper.get('[data-testid="prompt-form"]').trigger('submit')
    await eventually(() =>
      expect(bridge.presenters.library.listPrompts().map((p) => p.name)).toEqual(['to-french'])
    )

    await wrapper.get('[data-testid="prompt-row-to-french"]').findAll('button')[1].trigger('click')
    await eventually(() => expect(bridge.presenters.library.listPrompts()).toEqual([]))
  })

  it('shows why a duplicate name is refused', async () => {
    const { wrapper, bridge } = await mountPage(PromptsSettings)
    bridge.presenters.library.savePrompt({ name: 'summary', body: 'Summarise.' })
    await wrapper.get('[data-testid="prompt-add"]').trigger('click')
    await wrapper.get('[data-testid="prompt-name"]').setValue('Summary')
    await wrapper.get('[data-testid="prompt-body"]').setValue('Again.')
    await wrapper.get('[data-testid="prompt-form"]').trigger('submit')
    await eventually(() => expect(wrapper.get('[data-testid="prompts-status"]').text()).toMatch(/already/i))
    expect(bridge.presenters.library.listPrompts()).toHaveLength(1)
  })
})

describe('Settings > Assistants', () => {
  it('saves the defaults new chats start with', async () => {
    const { wrapper, bridge } = await mountPage(AssistantsSettings)
    await eventually(() => expect(wrapper.find('[data-testid="defaults-system"]').exists()).toBe(true))
    await wrapper.get('[data-testid="defaults-system"]').setValue('Be brief.')
    await wrapper.get('[data-testid="defaults-temperature"]').setValue('0.4')
    await wrapper.get('[data-testid="defaults-form"]').trigger('submit')
    await eventually(() =>
      expect(bridge.presenters.config.getSettings().defaultGenerationSettings).toEqual({
        systemPrompt: 'Be brief.',
        temperature: 0.4
      })
    )
  })

  it('saves an assistant with its instructions, parameters and switched-off tools', async () => {
    const { wrapper, bridge } = await mountPage(AssistantsSettings)
    await eventually(() => expect(wrapper.find('[data-testid="assistant-add"]').exists()).toBe(true))
    await wrapper.get('[data-testid="assistant-add"]').trigger('click')
    await wrapper.get('[data-testid="assistant-name"]').setValue('Reviewer')
    await wrapper.get('[data-testid="assistant-system"]').setValue('Review code strictly.')
    await wrapper.get('[data-testid="assistant-topP"]').setValue('0.5')
    await eventually(() => expect(wrapper.find('input[type="checkbox"][value="write"]').exists()).toBe(true))
    await wrapper.get('input[type="checkbox"][value="write"]').setValue(true)
    const server = bridge.presenters.mcp.listServers()[0]
    await eventually(() =>
      expect(wrapper.find(`input[type="checkbox"][value="${server.id}"]`).exists()).toBe(true)
    )
    await wrapper.get(`input[type="checkbox"][value="${server.id}"]`).setValue(true)
    await wrapper.get('[data-testid="assistant-form"]').trigger('submit')
    await eventually(() =>
      expect(bridge.presenters.library.listAssistants()).toEqual([
        expect.objectContaining({
          name: 'Reviewer',
          systemPrompt: 'Review code strictly.',
          params: { topP: 0.5 },
          model: null,
          disabledTools: ['write'],
          disabledMcpServers: [server.id]
        })
      ])
    )
    await eventually(() => expect(wrapper.find('[data-testid="assistant-row-Reviewer"]').exists()).toBe(true))
  })
})
