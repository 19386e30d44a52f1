import { describe, expect, it, vi } from 'vitest'
import { mount } from '@vue/test-utils'
import MarkdownView from '@renderer/components/chat/blocks/MarkdownView.vue'
import { markdownReady } from '@renderer/components/chat/lib/markdown'
import { createAppI18n } from '@renderer/i18n'

describe('markdown before its engine has loaded', () => {
  it('shows the text plainly at once, then renders it as markdown when markdown-it arrives', async () => {
    expect(markdownReady.value).toBe(false)
    const text = '# Title\n\nSome **bold** <b>raw</b> text.\n\nstill streaming *tail'
    const wrapper = mount(MarkdownView, {
      props: { text, live: true },
      global: { plugins: [createAppI18n('en-US')] }
    })
    // Plain and escaped: the words are there, nothing is interpreted.
    expect(wrapper.text()).toContain('# Title')
    expect(wrapper.find('h1').exists()).toBe(false)
    expect(wrapper.find('b').exists()).toBe(false)

    // A live view renders a burst in slices, one per frame: the rest follows the first chunk.
    await vi.waitFor(() => expect(wrapper.find('strong').exists()).toBe(true))
    expect(wrapper.get('h1').text()).toBe('Title')
    expect(wrapper.get('strong').text()).toBe('bold')
    expect(wrapper.find('b').exists()).toBe(false) // raw HTML stays off
    expect(wrapper.text()).toContain('still streaming')
    wrapper.unmount()
  })
})
