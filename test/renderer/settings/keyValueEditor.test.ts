import { describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import { mount } from '@vue/test-utils'
import { MASKED_SECRET } from '@shared/types/mcp'
import { createAppI18n } from '@renderer/i18n'
import KeyValueEditor, { type KeyValueRow } from '@renderer/components/settings/mcp/KeyValueEditor.vue'

/** The env-variable editor of MCP › Add server and Agents › Add agent. */
function mountEditor(initial: KeyValueRow[], locale: 'en-US' | 'zh-CN' = 'en-US') {
  const rows = ref(initial)
  const Host = defineComponent(
    () => () =>
      h(KeyValueEditor, {
        modelValue: rows.value,
        'onUpdate:modelValue': (next: KeyValueRow[]) => (rows.value = next),
        label: 'Environment variables',
        idPrefix: 'env',
        keyPlaceholder: 'API_KEY'
      })
  )
  return { wrapper: mount(Host, { global: { plugins: [createAppI18n(locale)] } }), rows }
}

const typeOf = (wrapper: ReturnType<typeof mount>, index: number) =>
  wrapper.get(`[data-testid="env-value-${index}"]`).attributes('type')

describe('the env-variable editor', () => {
  it('shows plain values as text and hides values whose names look like credentials', () => {
    const { wrapper } = mountEditor([
      { key: 'LOG_LEVEL', value: 'debug' },
      { key: 'OPENAI_API_KEY', value: 'sk-typed-now' },
      { key: 'GITHUB_TOKEN', value: MASKED_SECRET }
    ])
    expect(typeOf(wrapper, 0)).toBe('text')
    expect(typeOf(wrapper, 1)).toBe('password')
    // A stored secret comes back masked: nothing to reveal, the row says it is stored.
    expect(typeOf(wrapper, 2)).toBe('password')
    expect(wrapper.find('[data-testid="env-reveal-2"]').exists()).toBe(false)
    expect(wrapper.get('[data-testid="env-stored-2"]').text()).toBe('Stored')
  })

  it('shows or hides each value on its own, and a removed row does not pass its choice on', async () => {
    const { wrapper, rows } = mountEditor([
      { key: 'A_TOKEN', value: 'one' },
      { key: 'B_TOKEN', value: 'two' },
      { key: 'HOME_DIR', value: '/srv' }
    ])
    await wrapper.get('[data-testid="env-reveal-1"]').trigger('click')
    expect([typeOf(wrapper, 0), typeOf(wrapper, 1), typeOf(wrapper, 2)]).toEqual(['password', 'text', 'text'])
    expect(wrapper.get('[data-testid="env-reveal-1"]').attributes('aria-pressed')).toBe('true')
    expect(wrapper.get('[data-testid="env-reveal-1"]').text()).toBe('Hide')

    await wrapper.get('[data-testid="env-reveal-2"]').trigger('click')
    expect(typeOf(wrapper, 2)).toBe('password')

    // Removing the first row: B_TOKEN (revealed) moves up and stays revealed.
    await wrapper.get('[data-testid="env-remove-0"]').trigger('click')
    expect(rows.value.map((r) => r.key)).toEqual(['B_TOKEN', 'HOME_DIR'])
    expect([typeOf(wrapper, 0), typeOf(wrapper, 1)]).toEqual(['text', 'password'])
  })

  it('lays out name and value as two columns with room for the value, labelled in both languages', async () => {
    for (const locale of ['en-US', 'zh-CN'] as const) {
      const { wrapper } = mountEditor([{ key: 'X_TOKEN', value: 'v' }], locale)
      const row = wrapper.get('[data-testid="env-row-0"]')
      // Value column wider than the name column, neither collapsing below a readable width.
      expect(row.classes().join(' ')).toContain('grid-cols-[minmax(7rem,2fr)_minmax(9rem,3fr)_auto_auto]')
      const reveal = wrapper.get('[data-testid="env-reveal-0"]')
      expect(reveal.attributes('aria-label')).not.toMatch(/settingsMcp/)
      expect(wrapper.get('[data-testid="env-value-0"]').attributes('aria-label')).not.toMatch(/settingsMcp/)
    }
  })
})
