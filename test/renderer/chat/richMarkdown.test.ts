import { beforeAll, describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import MarkdownView from '@renderer/components/chat/blocks/MarkdownView.vue'
import { renderMarkdown } from '@renderer/components/chat/lib/markdownEngine'
import { loadMarkdown } from '@renderer/components/chat/lib/markdown'
import { ARTIFACT_CSP } from '@renderer/components/chat/lib/rich/artifactPreview'
import { createAppI18n } from '@renderer/i18n'
import { eventually } from '../settings/helpers'

const plugins = { global: { plugins: [createAppI18n('en-US')] } }

// The views below render with markdown-it loaded (lazyMarkdown.test.ts covers the moment before).
beforeAll(() => loadMarkdown())

/** Waits until the lazily loaded renderers have filled every placeholder. */
async function settled(wrapper: ReturnType<typeof mount>): Promise<void> {
  await eventually(() => !wrapper.find('[data-rich], [data-rich-loading]').exists(), 1_000)
}

describe('math in markdown', () => {
  it('finds inline and display formulas in all four delimiters', () => {
    const html = renderMarkdown(
      'Euler: $e^{i\\pi}+1=0$ and \\(a^2\\).\n\n$$\n\\int_0^1 x\\,dx\n$$\n\n\\[b^2\\]'
    )
    const formulas = [...html.matchAll(/data-rich="math" data-display="(\d)">([^<]*)</g)].map((m) => [
      m[1],
      m[2]
    ])
    expect(formulas).toEqual([
      ['0', 'e^{i\\pi}+1=0'],
      ['0', 'a^2'],
      ['1', '\\int_0^1 x\\,dx'],
      ['1', 'b^2']
    ])
  })

  it('leaves prices and lone dollar signs as text', () => {
    const html = renderMarkdown('It costs $5 and $10, or $ 3 $ for two.')
    expect(html).not.toContain('data-rich="math"')
    expect(html).toContain('It costs $5 and $10')
  })

  it('renders formulas with KaTeX once it has loaded, and shows a broken one with its source and error', async () => {
    const wrapper = mount(MarkdownView, {
      props: { text: 'Good: $x^2$\n\nBroken: $\\frac{1}{$\n\n' },
      attachTo: document.body,
      ...plugins
    })
    await settled(wrapper)
    expect(wrapper.find('.katex').exists()).toBe(true)
    const error = wrapper.get('[data-rich-error="math"]')
    expect(error.get('.md-rich-source').text()).toBe('\\frac{1}{')
    expect(error.get('.md-rich-message').text()).toMatch(/KaTeX parse error/)
    // The rest of the message is still there.
    expect(wrapper.text()).toContain('Good:')
    expect(wrapper.text()).toContain('Broken:')
    wrapper.unmount()
  })
})

describe('code blocks', () => {
  it('highlights a known language after its grammar loads, keeps the label and copies the source', async () => {
    const wrapper = mount(MarkdownView, {
      props: { text: '```py\nprint("hi")\n```\n\n' },
      attachTo: document.body,
      ...plugins
    })
    await settled(wrapper)
    expect(wrapper.get('.md-code-head').text()).toContain('py')
    expect(wrapper.find('.hljs-built_in, .hljs-string').exists()).toBe(true)
    await wrapper.get('[data-copy-code]').trigger('click')
    await flushPromises()
    expect(await navigator.clipboard.readText()).toBe('print("hi")\n')
    wrapper.unmount()
  })

  it('splits a long code block into joined pieces and copies the whole block from the first', async () => {
    const code = Array.from({ length: 100 }, (_, i) => `print(${i})\n`).join('')
    for (const text of [`\`\`\`py\n${code}\`\`\`\n\nAfter.`, `\`\`\`py\n${code}`]) {
      // Closed, or still streaming (the last lines are the live tail).
      const wrapper = mount(MarkdownView, { props: { text }, attachTo: document.body, ...plugins })
      await settled(wrapper)
      expect(wrapper.findAll('.md-joined').length).toBeGreaterThanOrEqual(2)
      expect(wrapper.findAll('.md-code').length).toBeGreaterThanOrEqual(3)
      await wrapper.get('[data-copy-code]').trigger('click')
      await flushPromises()
      expect(await navigator.clipboard.readText()).toBe(code)
      wrapper.unmount()
    }
  })

  it('shows a diagram fence as its source until Mermaid draws it', () => {
    const html = renderMarkdown('```mermaid\ngraph TD; A-->B\n```')
    expect(html).toContain('data-rich="mermaid"')
    expect(html).toContain('graph TD; A--&gt;B')
  })
})

describe('HTML and SVG artifacts', () => {
  it('previews an HTML fence in a frame without scripts, same origin, navigation or network', async () => {
    const wrapper = mount(MarkdownView, {
      props: { text: '```html\n<h1>Hi</h1><script>parent.alert(1)</script>\n```\n\n' },
      attachTo: document.body,
      ...plugins
    })
    const button = wrapper.get('[data-preview-artifact="html"]')
    expect(button.text()).toBe('Preview')
    await button.trigger('click')
    const frame = wrapper.get('iframe.md-artifact').element as HTMLIFrameElement
    expect(frame.getAttribute('sandbox')).toBe('')
    expect(frame.srcdoc).toContain(`content="${ARTIFACT_CSP}"`)
    expect(frame.srcdoc.indexOf('Content-Security-Policy')).toBeLessThan(frame.srcdoc.indexOf('<h1>'))
    expect(ARTIFACT_CSP).toContain("default-src 'none'")
    expect(button.attributes('aria-pressed')).toBe('true')
    await button.trigger('click')
    expect(wrapper.find('iframe.md-artifact').exists()).toBe(false)
    wrapper.unmount()
  })

  it('offers a preview for SVG, also when the fence says xml', () => {
    expect(renderMarkdown('```svg\n<svg></svg>\n```')).toContain('data-preview-artifact="svg"')
    expect(renderMarkdown('```xml\n<svg viewBox="0 0 1 1"></svg>\n```')).toContain(
      'data-preview-artifact="svg"'
    )
    expect(renderMarkdown('```xml\n<note/>\n```')).not.toContain('data-preview-artifact')
  })
})
