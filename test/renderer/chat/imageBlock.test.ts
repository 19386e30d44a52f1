import { describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import ImageBlock from '@renderer/components/chat/blocks/ImageBlock.vue'
import type { BlockOf, ImageBlockData } from '@shared/types/blocks'
import { createAppI18n } from '@renderer/i18n'
import { patternPng } from '../../fixtures/llm/fakeImages'

const PNG = patternPng(8, 6).toString('base64')

function block(data: ImageBlockData): BlockOf<'image'> {
  return { id: 'img-1', kind: 'image', status: 'success', text: '', data, createdAt: 1, updatedAt: 1 }
}

function mountImage(data: ImageBlockData) {
  return mount(ImageBlock, {
    props: { block: block(data) },
    global: { plugins: [createAppI18n('en-US')] },
    attachTo: document.body
  })
}

describe('ImageBlock', () => {
  it('shows the image with alt text and the file it was saved to', () => {
    const wrapper = mountImage({ mimeType: 'image/png', data: PNG, path: '/tmp/images/cat.png' })
    const img = wrapper.get('[data-testid="image-open"] img')
    expect(img.attributes('src')).toBe(`data:image/png;base64,${PNG}`)
    expect(img.attributes('alt')).toBe('Image from the model')
    expect(wrapper.get('[data-testid="image-path"]').text()).toBe('/tmp/images/cat.png')
    wrapper.unmount()
  })

  it('opens the image in a labelled viewer that Escape closes, giving focus back to the image', async () => {
    const wrapper = mountImage({ mimeType: 'image/png', data: PNG })
    const open = wrapper.get('[data-testid="image-open"]')
    ;(open.element as HTMLElement).focus()
    await open.trigger('click')
    await flushPromises()
    const viewer = document.querySelector('[data-testid="image-viewer"]')
    expect(viewer?.getAttribute('role')).toBe('dialog')
    expect(viewer?.getAttribute('aria-modal')).toBe('true')
    expect(document.getElementById(viewer!.getAttribute('aria-labelledby')!)?.textContent).toBe(
      'Image from the model'
    )
    expect(viewer?.querySelector('img')?.getAttribute('src')).toBe(`data:image/png;base64,${PNG}`)

    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }))
    await flushPromises()
    expect(document.querySelector('[data-testid="image-viewer"]')).toBeNull()
    expect(document.activeElement).toBe(open.element)
    wrapper.unmount()
  })

  it('renders nothing for data that is not an image', () => {
    for (const data of [
      { mimeType: 'text/html', data: PNG },
      { mimeType: 'image/png', data: '' },
      { mimeType: 'image/png"><script>', data: PNG }
    ]) {
      const wrapper = mountImage(data)
      expect(wrapper.find('img').exists()).toBe(false)
      wrapper.unmount()
    }
  })
})
