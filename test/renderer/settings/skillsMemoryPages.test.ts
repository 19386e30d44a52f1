import { describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import SkillsSettings from '@renderer/pages/settings/SkillsSettings.vue'
import MemorySettings from '@renderer/pages/settings/MemorySettings.vue'
import { eventually, useSettingsPage } from './helpers'

const mountPage = useSettingsPage()

describe('Settings › Skills', () => {
  it('lists the built-in skills, shows one, and switches one off in the back end', async () => {
    const { wrapper, bridge } = await mountPage(SkillsSettings)
    const items = () => wrapper.findAll('[data-testid="skill-item"]')
    await eventually(() => expect(items().length).toBeGreaterThan(0))
    const first = items()[0]
    const name = first.attributes('data-skill')!
    await first.get('[data-testid="skill-view"]').trigger('click')
    await eventually(() => expect(wrapper.get('[data-testid="skill-body"]').text()).not.toBe(''))

    await first.get('[data-testid="skill-enabled"]').trigger('click')
    await eventually(() => expect(bridge.presenters.skills.disabledNames()).toEqual([name]))
    expect(first.get('[data-testid="skill-enabled"]').attributes('aria-checked')).toBe('false')
  })

  it('says why a folder that holds no skill could not be added, and keeps the list', async () => {
    const { wrapper } = await mountPage(SkillsSettings)
    await eventually(() => expect(wrapper.findAll('[data-testid="skill-item"]').length).toBeGreaterThan(0))
    const before = wrapper.findAll('[data-testid="skill-item"]').length
    await wrapper.get('[data-testid="skill-folder"]').setValue('/definitely/not/a/skill/folder')
    await wrapper.get('form').trigger('submit')
    await eventually(() => expect(wrapper.get('[data-testid="skills-status"]').text()).not.toBe(''))
    expect(wrapper.findAll('[data-testid="skill-item"]').length).toBe(before)
  })
})

describe('Settings › Memory', () => {
  it('shows what the assistant remembers, rewrites and forgets it, and switches memory off', async () => {
    const { wrapper, bridge } = await mountPage(MemorySettings)
    const { memory } = bridge.presenters
    memory.remember('deepchat', { content: 'The user drinks tea every morning' })
    memory.remember('deepchat', { content: 'The user lives in Lisbon' })
    await wrapper.get('form[role="search"]').trigger('submit')
    const texts = () => wrapper.findAll('[data-testid="memory-item"]').map((item) => item.text())
    await eventually(() => expect(texts().join('\n')).toContain('tea every morning'))
    expect(texts()).toHaveLength(2)

    await wrapper.get('[data-testid="memory-search"]').setValue('Lisbon')
    await wrapper.get('form[role="search"]').trigger('submit')
    await eventually(() => expect(texts()).toHaveLength(1))
    expect(texts()[0]).toContain('Lisbon')

    await wrapper.get('[data-testid="memory-search"]').setValue('')
    await wrapper.get('form[role="search"]').trigger('submit')
    await eventually(() => expect(texts()).toHaveLength(2))

    const tea = () => wrapper.findAll('[data-testid="memory-item"]').find((i) => i.text().includes('tea'))!
    await tea().get('[data-testid="memory-edit"]').trigger('click')
    await wrapper.get('[data-testid="memory-edit-input"]').setValue('The user drinks green tea')
    await wrapper.get('[data-testid="memory-item"] form').trigger('submit')
    await eventually(() =>
      expect(memory.list('deepchat').map((m) => m.content)).toContain('The user drinks green tea')
    )
    await eventually(() => expect(texts().join('\n')).toContain('green tea'))

    await tea().get('[data-testid="memory-delete"]').trigger('click')
    await eventually(() =>
      expect(memory.list('deepchat').map((m) => m.content)).toEqual(['The user lives in Lisbon'])
    )
    await eventually(() => expect(texts()).toHaveLength(1))

    await wrapper.get('[data-testid="memory-enabled"]').trigger('click')
    await flushPromises()
    await eventually(() => expect(memory.settings().enabled).toBe(false))
  })
})
