import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createAppI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/stores/chat'
import ToolsPopover from '@renderer/components/chat/input/ToolsPopover.vue'
import { useRealBridge } from '../helpers/realBridge'
import { eventually } from '../settings/helpers'

let bridge: ReturnType<typeof useRealBridge> | undefined
let unmount: (() => void) | undefined
afterEach(async () => {
  unmount?.()
  unmount = undefined
  for (const store of [useChatStore()]) store.dispose()
  await bridge?.dispose()
  bridge = undefined
})

async function mountTools(sessionId: string | null) {
  const wrapper = mount(ToolsPopover, {
    props: { sessionId },
    global: { plugins: [createAppI18n('en-US')] },
    attachTo: document.body
  })
  unmount = () => wrapper.unmount()
  await flushPromises()
  return wrapper
}

describe('the Tools popover says which switches it edits', () => {
  it('the app-wide defaults before a chat exists, this chat’s once it does — on the button and inside', async () => {
    bridge = useRealBridge()
    setActivePinia(createPinia())
    const app = await mountTools(null)
    expect(app.get('[data-testid="tools-scope-badge"]').text()).toBe('all chats')
    await app.get('[data-testid="tools-button"]').trigger('click')
    await eventually(() =>
      expect(app.get('[data-testid="tools-scope-title"]').text()).toBe('Tools for all chats (defaults)')
    )
    expect(app.get('[data-testid="tools-scope"]').text()).toContain('app-wide')
    unmount?.()

    const session = bridge.presenters.sessions.create({ title: 'a chat' })
    await useChatStore().open(session.id)
    const chat = await mountTools(session.id)
    expect(chat.get('[data-testid="tools-scope-badge"]').text()).toBe('this chat')
    await chat.get('[data-testid="tools-button"]').trigger('click')
    await eventually(() =>
      expect(chat.get('[data-testid="tools-scope-title"]').text()).toBe('Tools for this chat')
    )
  })
})
