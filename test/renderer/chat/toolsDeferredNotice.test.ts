import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import { createAppI18n } from '@renderer/i18n'
import ToolsDeferredNotice from '@renderer/components/chat/ToolsDeferredNotice.vue'

describe('the tool search notice', () => {
  it.each(['en-US', 'zh-CN'] as const)('says how many tools the chat has and the limit (%s)', (locale) => {
    const notice = mount(ToolsDeferredNotice, {
      props: { total: 1000, limit: 100 },
      global: { plugins: [createAppI18n(locale)] }
    })
    const text = notice.get('[data-testid="tools-deferred-notice"]').text()
    expect(text).toContain('1000')
    expect(text).toContain('100')
    expect(text).not.toContain('chat.toolsDeferred')
  })

  it('can be dismissed', async () => {
    const notice = mount(ToolsDeferredNotice, {
      props: { total: 300, limit: 100 },
      global: { plugins: [createAppI18n('en-US')] }
    })
    await notice.get('[data-testid="tools-deferred-dismiss"]').trigger('click')
    expect(notice.emitted('dismiss')).toHaveLength(1)
  })
})
