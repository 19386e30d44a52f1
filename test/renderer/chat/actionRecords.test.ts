import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import { createPinia } from 'pinia'
import type { BlockOf } from '@shared/types/blocks'
import type { PermissionAnswer } from '@shared/types/blocks'
import { createAppI18n } from '@renderer/i18n'
import ActionBlock from '@renderer/components/chat/blocks/ActionBlock.vue'

/** The record a permission answer leaves in the message. */
function record(status: 'pending' | 'granted' | 'denied', decision?: PermissionAnswer): BlockOf<'action'> {
  return {
    id: 'action-i1',
    kind: 'action',
    status,
    text: '',
    createdAt: 1,
    updatedAt: 1,
    data: {
      actionType: 'permission',
      interactionId: 'i1',
      toolCallId: 'c1',
      toolName: 'search_docs',
      request: {
        type: 'mcp',
        server: 'docs',
        tool: 'docs__search_docs',
        originalTool: 'search_docs',
        suggestedRule: { kind: 'mcp', pattern: 'docs/search_docs' }
      } as never,
      ...(decision ? { decision } : {})
    }
  }
}

const mountRecord = (block: BlockOf<'action'>, locale: 'en-US' | 'zh-CN' = 'en-US') =>
  mount(ActionBlock, { props: { block }, global: { plugins: [createAppI18n(locale), createPinia()] } })

describe('the record of a permission answer', () => {
  it.each(['en-US', 'zh-CN'] as const)('words every decision, the server-wide ones too (%s)', (locale) => {
    const decisions: PermissionAnswer[] = [
      'allow_once',
      'allow_session',
      'allow_always',
      'allow_server_session',
      'allow_server_always'
    ]
    const lines = decisions.map((d) => mountRecord(record('granted', d), locale).text())
    expect(lines.join('\n')).not.toMatch(/chat\.action/)
    expect(new Set(lines).size).toBe(decisions.length)
    expect(mountRecord(record('denied', 'deny'), locale).text()).not.toMatch(/chat\.action/)
  })

  it('carries ⚠ only where care is needed: an open ask or a denial, not an allowed call', () => {
    const icon = (block: BlockOf<'action'>) => mountRecord(block).get('[data-testid="action-icon"]').text()
    expect(icon(record('granted', 'allow_server_session'))).toBe('✓')
    expect(icon(record('granted', 'allow_once'))).toBe('✓')
    expect(icon(record('denied', 'deny'))).toBe('⚠')
    expect(icon(record('pending'))).toBe('⚠')
    expect(mountRecord(record('granted', 'allow_server_session')).text()).toContain(
      'Allowed search_docs and every tool of its server for this chat'
    )
  })
})
