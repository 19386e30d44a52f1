import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { ActionBlockData } from '@shared/types/chat'
import type { WritePreviewFile } from '@shared/types/checkpoints'
import type { PermissionRequest } from '@shared/types/permission'
import type { PendingInteraction } from '@shared/types/session'
import PermissionCard from '@renderer/components/chat/approvals/PermissionCard.vue'
import { createAppI18n } from '@renderer/i18n'
import { useApprovalsStore } from '@renderer/stores/approvals'

let unmount: (() => void) | undefined
afterEach(() => {
  unmount?.()
  unmount = undefined
})

function interactionFor(tool: string, request: Partial<PermissionRequest>): PendingInteraction {
  const data = ActionBlockData.parse({
    actionType: 'permission',
    interactionId: 'i1',
    toolCallId: 'c1',
    toolName: tool,
    request: { tool, server: 'agent-filesystem', sessionId: 's1', risk: 'medium', reason: 'r', ...request }
  })
  return {
    id: 'i1',
    sessionId: 's1',
    messageId: 'm1',
    blockId: 'a1',
    toolCallId: 'c1',
    kind: 'permission',
    status: 'pending',
    request: data,
    response: null,
    createdAt: 1,
    resolvedAt: null
  }
}

/** The card with the current file as main would report it (the route itself is tested in main). */
async function mountCard(
  tool: string,
  request: Partial<PermissionRequest>,
  args: Record<string, unknown>,
  current: WritePreviewFile[] = []
) {
  setActivePinia(createPinia())
  const approvals = useApprovalsStore()
  const preview = vi.spyOn(approvals, 'previewWrite').mockResolvedValue(current)
  const wrapper = mount(PermissionCard, {
    props: { interaction: interactionFor(tool, request), first: false, args: JSON.stringify(args) },
    global: { plugins: [createAppI18n('en-US')] },
    attachTo: document.body
  })
  unmount = () => wrapper.unmount()
  await flushPromises()
  return { wrapper, preview }
}

describe('what a card shows before approval', () => {
  it('shows an edit as the diff of the replaced text, without asking main for the file', async () => {
    const { wrapper, preview } = await mountCard(
      'edit',
      { type: 'write', paths: ['/w/a.ts'] },
      { path: '/w/a.ts', old_string: 'const a = 1', new_string: 'const a = 2' }
    )
    expect(preview).not.toHaveBeenCalled()
    // The diff view loads on first use.
    await vi.waitFor(() => wrapper.get('[data-testid="tool-diff"]'))
    const diff = wrapper.get('[data-testid="tool-diff"]').text()
    expect(diff).toContain('const a = 1')
    expect(diff).toContain('const a = 2')
    expect(wrapper.find('[data-testid="args-view"]').exists()).toBe(false)
  })

  it('shows a write as a diff against the current file, and its highlighted new content one click away', async () => {
    const { wrapper } = await mountCard(
      'write',
      { type: 'write', paths: ['/w/notes.ts'] },
      { path: '/w/notes.ts', content: 'export const kept = 1\nexport const added = 2\n' },
      [{ path: '/w/notes.ts', status: 'shown', content: 'export const kept = 1\n', size: 22 }]
    )
    expect(wrapper.get('[data-testid="file-preview"]').attributes('data-view')).toBe('diff')
    await vi.waitFor(() => wrapper.get('[data-testid="tool-diff"]'))
    expect(wrapper.get('[data-testid="tool-diff"]').text()).toContain('export const added = 2')
    await wrapper.get('[data-testid="file-preview-content-tab"]').trigger('click')
    const content = () => wrapper.get('[data-testid="file-preview-content"]')
    // The grammar loads on first use, then the content shows highlighted.
    await vi.waitFor(() => expect(content().html()).toContain('hljs-keyword'))
    expect(content().element.textContent).toBe('export const kept = 1\nexport const added = 2\n')
    // Highlighted: the keywords are marked up, the text itself escaped.
    expect(content().html()).toContain('hljs-keyword')
  })

  it('shows a new file as its content and says why there is no diff', async () => {
    const { wrapper } = await mountCard(
      'write',
      { type: 'write', paths: ['/w/page.html'] },
      { path: '/w/page.html', content: '<script>alert(1)</script>' },
      [{ path: '/w/page.html', status: 'missing', content: null }]
    )
    expect(wrapper.get('[data-testid="file-preview-note"]').text()).toContain('A new file')
    const content = () => wrapper.get('[data-testid="file-preview-content"]')
    await vi.waitFor(() => expect(content().text()).toBe('<script>alert(1)</script>'))
    expect(content().find('script').exists()).toBe(false)
  })

  it('says when the current file may not be shown', async () => {
    const { wrapper } = await mountCard(
      'write',
      { type: 'write', paths: ['/data/deepchat.db'] },
      { path: '/data/deepchat.db', content: 'x' },
      [{ path: '/data/deepchat.db', status: 'hidden', content: null }]
    )
    expect(wrapper.get('[data-testid="file-preview-note"]').text()).toContain('may not read')
    expect(wrapper.find('[data-testid="tool-diff"]').exists()).toBe(false)
  })

  it('shows MCP arguments as a form, with the raw JSON one click away', async () => {
    const args = { repo: 'octo/hello', labels: ['bug', 'ui'], body: 'line one\nline two' }
    const { wrapper } = await mountCard(
      'github_create_issue',
      { type: 'mcp', server: 'github', originalTool: 'create_issue' },
      args
    )
    expect(wrapper.get('[data-testid="arg-repo"]').text()).toBe('octo/hello')
    expect(wrapper.get('[data-testid="arg-body"]').text()).toBe('line one\nline two')
    expect(wrapper.find('[data-testid="args-raw"]').exists()).toBe(false)
    await wrapper.get('[data-testid="args-raw-toggle"]').trigger('click')
    expect(JSON.parse(wrapper.get('[data-testid="args-raw"]').text())).toEqual(args)
  })
})
