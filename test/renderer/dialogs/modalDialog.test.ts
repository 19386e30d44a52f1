/* eslint-disable vue/one-component-per-file -- small host components for the dialog under test */
import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { defineComponent, h, ref } from 'vue'
import ModalDialog from '@renderer/components/dialogs/ModalDialog.vue'
import { nextTabIndex } from '@renderer/components/settings/common/tabs'
import { createAppI18n } from '@renderer/i18n'

const i18n = { global: { plugins: [createAppI18n('en-US')] }, attachTo: document.body }

const Nested = defineComponent({
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
            inner.value &&
              h(ModalDialog, { title: 'Inner', onClose: () => (inner.value = false) }, () => [
                h('input', { id: 'inner-field' })
              ])
          ])
      ])
  }
})

/** A dialog that must be answered: it closes only through its own buttons. */
const MustAnswer = defineComponent({
  setup() {
    const open = ref(false)
    const closed = ref(0)
    return () =>
      h('div', [
        h('button', { id: 'opener', onClick: () => (open.value = true) }, 'ask'),
        h('output', { id: 'closed' }, String(closed.value)),
        open.value &&
          h(
            ModalDialog,
            {
              title: 'Decide',
              dismissable: false,
              tone: 'warning',
              testId: 'must-answer',
              onClose: () => closed.value++
            },
            {
              default: () => [h('p', 'Allow it?')],
              footer: () => [
                h(
                  'button',
                  { id: 'deny', 'data-autofocus': '', onClick: () => (open.value = false) },
                  'Deny'
                ),
                h('button', { id: 'allow', onClick: () => (open.value = false) }, 'Allow')
              ]
            }
          )
      ])
  }
})

const escape = () =>
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }))
const tab = (shiftKey = false) =>
  document.dispatchEvent(
    new KeyboardEvent('keydown', { key: 'Tab', shiftKey, bubbles: true, cancelable: true })
  )

describe('ModalDialog', () => {
  it('is a labelled modal dialog that focuses its first field and closes the topmost one on Escape', async () => {
    const wrapper = mount(Nested, i18n)
    await flushPromises()
    const dialog = wrapper.get('[role="dialog"]')
    expect(dialog.attributes('aria-modal')).toBe('true')
    expect(wrapper.get(`#${dialog.attributes('aria-labelledby')}`).text()).toBe('Outer')
    expect(document.activeElement?.id).toBe('first')

    await wrapper.get('#last').trigger('click')
    await flushPromises()
    expect(wrapper.findAll('[role="dialog"]')).toHaveLength(2)
    escape()
    await flushPromises()
    expect(wrapper.findAll('[role="dialog"]')).toHaveLength(1)
    escape()
    await flushPromises()
    expect(wrapper.findAll('[role="dialog"]')).toHaveLength(0)
    wrapper.unmount()
  })

  it('wraps Tab from the last control to the first, and back with Shift+Tab', async () => {
    const wrapper = mount(Nested, i18n)
    await flushPromises()
    ;(wrapper.get('#last').element as HTMLElement).focus()
    tab()
    expect(document.activeElement?.getAttribute('data-testid')).toBe('dialog-close')
    tab(true)
    expect(document.activeElement?.id).toBe('last')
    wrapper.unmount()
  })

  it('pulls focus back in when it fell outside the dialog', async () => {
    const wrapper = mount(Nested, i18n)
    await flushPromises()
    ;(wrapper.get('#opener').element as HTMLElement).focus()
    tab()
    expect(document.activeElement?.getAttribute('data-testid')).toBe('dialog-close')
    wrapper.unmount()
  })

  it('when not dismissable: no close button, Escape and clicks outside do nothing, focus starts on [data-autofocus]', async () => {
    const wrapper = mount(MustAnswer, i18n)
    const opener = wrapper.get('#opener')
    ;(opener.element as HTMLElement).focus()
    await opener.trigger('click')
    await flushPromises()
    const dialog = wrapper.get('[data-testid="must-answer"]')
    expect(dialog.attributes('aria-modal')).toBe('true')
    expect(wrapper.find('[data-testid="dialog-close"]').exists()).toBe(false)
    expect(document.activeElement?.id).toBe('deny')

    escape()
    await wrapper.get('.fixed').trigger('mousedown')
    await flushPromises()
    expect(wrapper.find('[data-testid="must-answer"]').exists()).toBe(true)
    expect(wrapper.get('#closed').text()).toBe('0')

    await wrapper.get('#allow').trigger('click')
    await flushPromises()
    expect(wrapper.find('[data-testid="must-answer"]').exists()).toBe(false)
    // Focus goes back to what opened the dialog.
    expect(document.activeElement?.id).toBe('opener')
    wrapper.unmount()
  })

  it('closes on a click outside when dismissable, but not on a click inside', async () => {
    const wrapper = mount(Nested, i18n)
    await flushPromises()
    await wrapper.get('[role="dialog"]').trigger('mousedown')
    expect(wrapper.findAll('[role="dialog"]')).toHaveLength(1)
    await wrapper.get('.fixed').trigger('mousedown')
    await flushPromises()
    expect(wrapper.findAll('[role="dialog"]')).toHaveLength(0)
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
