import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import QueueLane from '@renderer/components/chat/QueueLane.vue'
import { createAppI18n } from '@renderer/i18n'

const items = [
  { id: 'q1', text: 'also check the tests', createdAt: 1 },
  { id: 'q2', text: 'then summarise', createdAt: 2 }
]

function mountLane(running: boolean, locale: 'en-US' | 'zh-CN' = 'en-US') {
  return mount(QueueLane, { props: { items, running }, global: { plugins: [createAppI18n(locale)] } })
}

describe('QueueLane', () => {
  it('lists queued messages and cancels one by its id', async () => {
    const wrapper = mountLane(true)
    expect(wrapper.findAll('li').map((li) => li.text())).toEqual([
      expect.stringContaining('also check the tests'),
      expect.stringContaining('then summarise')
    ])
    await wrapper.findAll('button')[1].trigger('click')
    expect(wrapper.emitted('cancel')).toEqual([['q2']])
  })

  it('says queued input goes out with the next message only when no reply is running', () => {
    expect(mountLane(true).find('[data-testid="queue-with-next"]').exists()).toBe(false)
    expect(
      mountLane(false)
        .findAll('[data-testid="queue-with-next"]')
        .map((s) => s.text())
    ).toEqual(['Goes out with your next message', 'Goes out with your next message'])
    expect(mountLane(false, 'zh-CN').get('[data-testid="queue-with-next"]').text()).toBe(
      '将随你的下一条消息一起发送'
    )
  })
})
