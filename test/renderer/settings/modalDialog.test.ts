import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { defineComponent, h, ref } from 'vue'
import ModalDialog from '@renderer/components/settings/common/ModalDialog.vue'
import { nextTabIndex } from '@renderer/components/settings/common/focusTrap'
import { createAppI18n } from '@renderer/i18n'

const Host = defineComponent({
  setup() {
    const outer = ref(true)
    const inner = ref(false)
    return () =>
      h('div', [
        h('button', { id: 'opener' }, 'open'),
        outer.value &&
          h(ModalDialog, { title: 'Outer', onClose: () => (outer.value = false) }, () => [
            h('input', { id: 'first' }),
            h('button', { id: 'last', onClick: () => (inner.value = true) }, 'inner'),
            inner.value && h(ModalDialog, { title: 'Inner', onClose: () => (inner.value = false) }, () => [h('input', { id: 'inner-field' })])
          ])
      ])
  }
})

describe('ModalDialog', () => {
  it('is a labelled modal dialog that focuses its first field and closes the topmost one on Escape', async () => {
    const wrapper = mount(Host, { global: { plugins: [createAppI18n('en-US')] }, attachTo: document.body })
    await flushPromises()
    const dialog = wrapper.get('[role="dialog"]')
    expect(dialog.attributes('aria-modal')).toBe('true')
    expect(wrapper.get(`#${dialog.attributes('aria-labelledby')}`).text()).toBe('Outer')
    expect(document.activeElement?.id).toBe('first')

    await wrapper.get('#last').trigger('click')
    await flushPromises()
    expect(wrapper.findAll('[role="dialog"]')).toHaveLength(2)
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))
    await flushPromises()
    expect(wrapper.findAll('[role="dialog"]')).toHaveLength(1)
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }))
    await flushPromises()
    expect(wrapper.findAll('[role="dialog"]')).toHaveLength(0)
    wrapper.unmount()
  })

  it('wraps Tab from the last control to the first', async () => {
    const wrapper = mount(Host, { global: { plugins: [createAppI18n('en-US')] }, attachTo: document.body })
    await flushPromises()
    ;(wrapper.get('#last').element as HTMLElement).focus()
    await wrapper.get('[role="dialog"]').trigger('keydown', { key: 'Tab' })
    expect(document.activeElement?.getAttribute('data-testid')).toBe('dialog-close')
    wrapper.unmount()
  })

  it('moves between tabs with the arrow keys, Home and End', () => {
    expect(nextTabIndex('ArrowRight', 3, 4)).toBe(0)
    expect(nextTabIndex('ArrowLeft', 0, 4)).toBe(3)
    expect(nextTabIndex('Home', 2, 4)).toBe(0)
    expect(nextTabIndex('End', 1, 4)).toBe(3)
    expect(nextTabIndex('a', 1, 4)).toBeNull()
  })
})
