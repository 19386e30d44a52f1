import { afterEach, describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import { createAppI18n } from '@renderer/i18n'
import HistorySearch from '@renderer/components/chat/sidebar/HistorySearch.vue'
import { useRealBridge } from '../helpers/realBridge'
import { eventually } from '../settings/helpers'

let bridge: ReturnType<typeof useRealBridge> | undefined
afterEach(async () => {
  await bridge?.dispose()
  bridge = undefined
})

describe('the sidebar search', () => {
  it('shows hits as the user types, without Enter, and follows the latest words', async () => {
    bridge = useRealBridge()
    setActivePinia(createPinia())
    const { sessions } = bridge.presenters
    const trip = sessions.create({ title: 'trip' })
    sessions.messages.appendUserMessage(trip.id, { text: 'Book the zeppelin ride to Kyoto' })
    const food = sessions.create({ title: 'food' })
    sessions.messages.appendUserMessage(food.id, { text: 'A recipe for marmalade' })
    const router = createRouter({
      history: createMemoryHistory(),
      routes: [{ path: '/:p(.*)*', component: { render: () => null } }]
    })
    const wrapper = mount(HistorySearch, { global: { plugins: [createAppI18n('en-US'), router] } })

    await wrapper.get('[data-testid="history-search"]').setValue('zeppelin')
    await eventually(() => expect(wrapper.findAll('[data-testid="search-hit"]')).toHaveLength(1))
    expect(wrapper.get('[data-testid="search-hit"]').text()).toContain('zeppelin')

    await wrapper.get('[data-testid="history-search"]').setValue('marmalade')
    await eventually(() => expect(wrapper.get('[data-testid="search-hit"]').text()).toContain('marmalade'))
    expect(wrapper.findAll('[data-testid="search-hit"]')).toHaveLength(1)

    await wrapper.get('[data-testid="history-search"]').setValue('')
    await eventually(() => expect(wrapper.find('[data-testid="search-results"]').exists()).toBe(false))
  })
})
