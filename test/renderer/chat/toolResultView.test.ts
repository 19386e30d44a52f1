import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import ToolResultView from '@renderer/components/chat/blocks/ToolResultView.vue'
import { useAppStore } from '@renderer/stores/app'
import { createAppI18n } from '@renderer/i18n'
import type { ToolContentItem } from '@shared/types/tools'
import { patternPng } from '../../fixtures/llm/fakeImages'

const PNG = patternPng(8, 6).toString('base64')
// Four bytes of silence are enough for the player to be offered (it is not played).
const WAV = Buffer.from('RIFF').toString('base64')

function mountView(items: ToolContentItem[], structuredContent?: unknown) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const app = useAppStore()
  const opened: string[] = []
  vi.spyOn(app, 'openExternal').mockImplementation(async (url: string) => {
    opened.push(url)
    return { opened: true }
  })
  const wrapper = mount(ToolResultView, {
    props: { items, structuredContent },
    global: { plugins: [pinia, createAppI18n('en-US')] },
    attachTo: document.body
  })
  return { wrapper, opened }
}

afterEach(() => {
  document.body.innerHTML = ''
})

describe('ToolResultView', () => {
  it('shows an image as a thumbnail that opens full size', async () => {
    const { wrapper } = mountView([{ type: 'image', data: PNG, mimeType: 'image/png' }])
    const thumb = wrapper.get('[data-testid="tool-result-image"]')
    expect(thumb.get('img').attributes('src')).toBe(`data:image/png;base64,${PNG}`)
    await thumb.trigger('click')
    await flushPromises()
    const viewer = document.querySelector('[data-testid="tool-result-image-viewer"]')
    expect(viewer?.querySelector('img')?.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`)
    wrapper.unmount()
  })

  it('offers a player for audio', () => {
    const { wrapper } = mountView([{ type: 'audio', data: WAV, mimeType: 'audio/wav' }])
    const audio = wrapper.get('[data-testid="tool-result-audio"]')
    expect(audio.attributes('src')).toBe(`data:audio/wav;base64,${WAV}`)
    expect(audio.attributes()).toHaveProperty('controls')
    wrapper.unmount()
  })

  it('never puts a payload of another type or a non-base64 payload into a src', () => {
    const { wrapper } = mountView([
      { type: 'image', data: PNG, mimeType: 'text/html' },
      { type: 'audio', data: 'x" onerror="alert(1)', mimeType: 'audio/wav' }
    ])
    expect(wrapper.findAll('img, audio')).toHaveLength(0)
    expect(wrapper.findAll('[data-testid="tool-result-other"]')).toHaveLength(2)
    wrapper.unmount()
  })

  it('shows an embedded resource with its text collapsed, and a blob by its size', () => {
    const { wrapper } = mountView([
      {
        type: 'resource',
        resource: { uri: 'file:///notes/a.md', mimeType: 'text/markdown', text: '# Notes' }
      },
      { type: 'resource', resource: { uri: 'mem://blob', mimeType: 'application/pdf', blob: 'AAAA' } }
    ])
    const [text, blob] = wrapper.findAll('[data-testid="tool-result-resource"]')
    expect(text.text()).toContain('file:///notes/a.md')
    const details = text.get('details')
    expect(details.attributes()).not.toHaveProperty('open')
    expect(details.get('[data-testid="tool-result-resource-text"]').text()).toBe('# Notes')
    expect(blob.text()).toContain('application/pdf · 3 bytes')
    wrapper.unmount()
  })

  it('opens a web resource link outside the app and leaves other schemes as text', async () => {
    const { wrapper, opened } = mountView([
      { type: 'resource_link', uri: 'https://example.com/report', name: 'Report', description: 'Q3' },
      { type: 'resource_link', uri: 'file:///etc/passwd', name: 'passwd' }
    ])
    const [web, local] = wrapper.findAll('[data-testid="tool-result-link"]')
    await web.get('[data-testid="tool-result-link-open"]').trigger('click')
    expect(opened).toEqual(['https://example.com/report'])
    expect(web.text()).toContain('Q3')
    expect(local.find('button').exists()).toBe(false)
    expect(local.text()).toContain('file:///etc/passwd')
    wrapper.unmount()
  })

  it('shows structured content as collapsed pretty JSON', () => {
    const { wrapper } = mountView([], { temperature: 21.5, tags: ['a'] })
    const details = wrapper.get('[data-testid="tool-result-structured"]')
    expect(details.attributes()).not.toHaveProperty('open')
    expect(details.get('pre').text()).toBe(JSON.stringify({ temperature: 21.5, tags: ['a'] }, null, 2))
    wrapper.unmount()
  })

  it('renders nothing for a result without items or structured content', () => {
    const { wrapper } = mountView([])
    expect(wrapper.find('[data-testid="tool-result-view"]').exists()).toBe(false)
    wrapper.unmount()
  })
})
