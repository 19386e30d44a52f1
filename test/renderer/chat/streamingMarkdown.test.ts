import { describe, expect, it, vi } from 'vitest'
import { defineComponent, h, nextTick, reactive } from 'vue'
import { mount } from '@vue/test-utils'
import MarkdownView from '@renderer/components/chat/blocks/MarkdownView.vue'
import { loadMarkdown } from '@renderer/components/chat/lib/markdown'
import { applyOps } from '@renderer/stores/lib/applyDelta'
import { createAppI18n } from '@renderer/i18n'
import type { ChatMessageView } from '@shared/types/chat'

function streamingMessage(): ChatMessageView {
  return reactive<ChatMessageView>({
    id: 'm1',
    sessionId: 's1',
    role: 'assistant',
    status: 'streaming',
    orderSeq: 1,
    content: null,
    metadata: {},
    tapeEntryId: null,
    createdAt: 0,
    updatedAt: 0,
    stream: null,
    blocks: [{ id: 'b1', kind: 'content', status: 'loading', text: '', createdAt: 0, updatedAt: 0 }]
  })
}

// The view as ContentBlock uses it: the block is the source of its append log.
const Host = defineComponent({
  props: { message: { type: Object, required: true } },
  setup: (props) => () => {
    const block = (props.message as ChatMessageView).blocks[0] as { text: string }
    return h(MarkdownView, { text: block.text, source: block, live: true })
  }
})

describe('a streaming reply rendered from its appended pieces', () => {
  it('ends up as the same markdown as the whole text rendered at once, keeping finished chunks', async () => {
    await loadMarkdown()
    const text = Array.from({ length: 40 }, (_, i) =>
      i % 7 === 3
        ? `\`\`\`ts\nconst n${i} = ${i}\n\n// still code\n\`\`\`\n`
        : `Paragraph **${i}** with words.\n\n`
    ).join('')
    const message = streamingMessage()
    const wrapper = mount(Host, { props: { message }, global: { plugins: [createAppI18n('en-US')] } })
    let firstChunk: Element | null = null
    for (let i = 0, seq = 1; i < text.length; i += 17, seq++) {
      applyOps(message, [{ op: 'append', blockId: 'b1', field: 'text', text: text.slice(i, i + 17) }])
      // Deltas a frame apart, as they come.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
      firstChunk ??= wrapper.element.querySelector('.md-chunk')
    }
    const whole = mount(MarkdownView, { props: { text }, global: { plugins: [createAppI18n('en-US')] } })
    // A live view renders in slices, one per frame: it catches up.
    await vi.waitFor(() => expect(wrapper.text()).toBe(whole.text()))
    expect(wrapper.findAll('.md-chunk').length).toBeGreaterThan(30)
    // The first finished chunk is the same element as when it appeared: never rendered again.
    expect(wrapper.element.querySelector('.md-chunk')).toBe(firstChunk)
    whole.unmount()
    wrapper.unmount()
  })

  it('renders the new end when the last upsert carries appends not yet seen', async () => {
    await loadMarkdown()
    const message = streamingMessage()
    const wrapper = mount(Host, { props: { message }, global: { plugins: [createAppI18n('en-US')] } })
    const streamed = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}.\n\n`).join('')
    applyOps(message, [{ op: 'append', blockId: 'b1', field: 'text', text: streamed }])
    await nextTick()
    // The stream's end: an upsert whose text holds the appends queued with it.
    const block = {
      ...message.blocks[0],
      text: `${streamed}Paragraph 40.\n\nThe end.`,
      status: 'success' as const
    }
    applyOps(message, [{ op: 'upsert', block }])
    await vi.waitFor(() => expect(wrapper.text()).toContain('The end.'))
    expect(wrapper.findAll('.md-chunk')).toHaveLength(41)
    wrapper.unmount()
  })

  it('starts over when the block is replaced rather than appended to', async () => {
    await loadMarkdown()
    const message = streamingMessage()
    const wrapper = mount(Host, { props: { message }, global: { plugins: [createAppI18n('en-US')] } })
    applyOps(message, [{ op: 'append', blockId: 'b1', field: 'text', text: 'First answer.\n\nMore of it' }])
    await nextTick()
    // Same length, other words: replaced, not mistaken for "nothing appended".
    const block = { ...message.blocks[0], text: 'Other answer.\n\nMore of it', status: 'success' as const }
    applyOps(message, [{ op: 'upsert', block }])
    await vi.waitFor(() => expect(wrapper.text()).toContain('Other answer.'))
    expect(wrapper.text()).not.toContain('First')
    applyOps(message, [{ op: 'upsert', block: { ...block, text: 'Third, of another length' } }])
    await vi.waitFor(() => expect(wrapper.text()).toBe('Third, of another length'))
    wrapper.unmount()
  })

  it('renders a burst of finished chunks in paced slices while live, the tail only after the chunks before it', async () => {
    await loadMarkdown()
    const message = streamingMessage()
    const wrapper = mount(Host, { props: { message }, global: { plugins: [createAppI18n('en-US')] } })
    applyOps(message, [{ op: 'append', blockId: 'b1', field: 'text', text: 'Opening paragraph.\n\nstill' }])
    await vi.waitFor(() => expect(wrapper.find('.md-tail').exists()).toBe(true))
    const first = wrapper.element.querySelector('.md-chunk')
    expect(first?.textContent?.trim()).toBe('Opening paragraph.')
    // A fast provider's batch: 600 paragraphs at once (several slices), and the start of the next.
    const burst = Array.from({ length: 600 }, (_, i) => ` paragraph ${i}.\n\n`).join('')
    applyOps(message, [{ op: 'append', blockId: 'b1', field: 'text', text: `${burst}The tail` }])
    // When each slice reached the DOM (a mutation observer runs right after Vue's patch).
    const slices: number[] = []
    let shown = 1
    const observer = new MutationObserver(() => {
      const chunks = wrapper.element.querySelectorAll('.md-chunk').length
      if (chunks > shown) slices.push(performance.now())
      shown = chunks
    })
    observer.observe(wrapper.element, { childList: true, subtree: true })
    for (let frames = 0; ; frames++) {
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
      const chunks = wrapper.findAll('.md-chunk').length
      const tail = wrapper.find('.md-tail')
      // The tail never shows before the chunks ahead of it.
      if (tail.exists() && tail.text() === 'The tail') {
        expect(chunks).toBe(601)
        break
      }
      expect(frames).toBeLessThan(1000)
    }
    observer.disconnect()
    expect(slices.length).toBeGreaterThan(1)
    // Slices are paced, not one per frame: frames between them are left to input and paint. (A
    // slice starts 33 ms after the one before it started; its DOM changes come after its own
    // markdown work, so single gaps vary by that much, their mean does not.)
    const meanGap = (slices.at(-1)! - slices[0]) / (slices.length - 1)
    expect(meanGap).toBeGreaterThanOrEqual(25)
    // The chunks rendered before the burst were not rendered again.
    expect(wrapper.element.querySelector('.md-chunk')).toBe(first)
    wrapper.unmount()
  })

  it('groups finished chunks in pages of 32, every one rendered when there is no scroll root', async () => {
    await loadMarkdown()
    const text = Array.from({ length: 1100 }, (_, i) => `Paragraph ${i}.\n\n`).join('')
    const wrapper = mount(MarkdownView, { props: { text }, global: { plugins: [createAppI18n('en-US')] } })
    expect(wrapper.findAll('.md-chunk')).toHaveLength(1100)
    // 34 full pages and the start of a 35th; which are far is decided in the chat list (longReply.e2e).
    expect(wrapper.findAll('[data-page]')).toHaveLength(35)
    expect(wrapper.findAll('[data-far]')).toHaveLength(0)
    expect(wrapper.text()).toContain('Paragraph 1099.')
    wrapper.unmount()
  })
})
