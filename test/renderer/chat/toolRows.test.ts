import { afterEach, describe, expect, it } from 'vitest'
import { defineComponent, h, ref } from 'vue'
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { createMemoryHistory, createRouter } from 'vue-router'
import type { BlockOf } from '@shared/types/blocks'
import type { PendingInteraction, SessionRecord } from '@shared/types/session'
import ToolCallBlock from '@renderer/components/chat/blocks/ToolCallBlock.vue'
import SessionItem from '@renderer/components/chat/sidebar/SessionItem.vue'
import { childLabel } from '@renderer/components/chat/sidebar/childLabel'
import { rowProgress, summarizeCall } from '@renderer/components/chat/lib/toolSummary'
import { useInteractionContext } from '@renderer/components/chat/lib/interactionContext'
import { createAppI18n } from '@renderer/i18n'
import { useRealBridge } from '../helpers/realBridge'
import { eventually } from '../settings/helpers'

let bridge: ReturnType<typeof useRealBridge> | undefined
afterEach(async () => {
  await bridge?.dispose()
  bridge = undefined
})

function callBlock(
  name: string,
  params: unknown,
  extra: Partial<BlockOf<'tool_call'>> & { serverName?: string } = {}
): BlockOf<'tool_call'> {
  const { serverName, ...rest } = extra
  return {
    id: 'b1',
    kind: 'tool_call',
    status: 'loading',
    text: '',
    toolCall: { id: 'c1', name, params: JSON.stringify(params), ...(serverName ? { serverName } : {}) },
    createdAt: 1,
    updatedAt: 1,
    ...rest
  }
}

const mountRow = (block: BlockOf<'tool_call'>) =>
  mount(ToolCallBlock, { props: { block }, global: { plugins: [createAppI18n('en-US'), createPinia()] } })
/** The row's words as they read on screen (its parts are laid out with gaps, not spaces). */
const rowText = (wrapper: ReturnType<typeof mountRow>) =>
  wrapper
    .findAll('[data-testid="tool-call-toggle"] > [data-testid]')
    .map((part) => part.text())
    .filter(Boolean)
    .join(' ')

describe('the tool call row', () => {
  it('names the tool, then its server', () => {
    const wrapper = mountRow(
      callBlock('echo', { message: 'hi' }, { serverName: 'Echo Tools', status: 'success' })
    )
    expect(wrapper.get('[data-testid="tool-call-name"]').text()).toBe('echo')
    expect(wrapper.get('[data-testid="tool-call-server"]').text()).toBe('· Echo Tools')
    expect(rowText(wrapper)).toBe('echo · Echo Tools hi')
    expect(
      mountRow(callBlock('read', { path: 'a.txt' }))
        .find('[data-testid="tool-call-server"]')
        .exists()
    ).toBe(false)
  })

  it("summarises an orchestrator call by its tasks, and its progress doesn't repeat the mode", () => {
    const block = callBlock(
      'subagent_orchestrator',
      { mode: 'parallel', tasks: [{ slotId: 'self', title: 'Note writer', prompt: 'Write.' }] },
      {
        serverName: 'agent-subagents',
        data: { progress: 'parallel · 1 subagent · running\n- 1. Note writer (self): running' }
      }
    )
    const wrapper = mountRow(block)
    expect(wrapper.get('[data-testid="tool-call-summary"]').text()).toBe('Note writer')
    expect(wrapper.get('[data-testid="tool-call-progress"]').text()).toBe('parallel · 1 subagent · running')
    expect(rowText(wrapper)).not.toMatch(/\b(\w+) \1\b/)
    expect(
      summarizeCall('subagent_orchestrator', JSON.stringify({ operation: 'wait', runId: 'run-7' }))
    ).toBe('wait run-7')
    expect(
      summarizeCall(
        'subagent_orchestrator',
        JSON.stringify({ operation: 'run', mode: 'chain', tasks: [{ title: 'A' }, { title: 'B' }] })
      )
    ).toBe('A, B')
  })

  it('expands an edit to a line diff of the replaced text, whichever argument names the model used', async () => {
    for (const params of [
      { path: '/w/a.ts', old_string: 'const a = 1\nkeep', new_string: 'const a = 2\nkeep' },
      { file_path: '/w/a.ts', oldText: 'const a = 1\nkeep', newText: 'const a = 2\nkeep' }
    ]) {
      const wrapper = mountRow(callBlock('edit', params, { status: 'success' }))
      expect(wrapper.find('[data-testid="tool-diff"]').exists()).toBe(false)
      await wrapper.get('[data-testid="tool-call-toggle"]').trigger('click')
      expect(wrapper.get('[data-testid="tool-diff-path"]').text()).toBe('/w/a.ts')
      // Each line: its marker (+, - or a space), then the text (the diff view loads on first use).
      const lines = () => wrapper.findAll('[data-testid="tool-diff"] > div').map((line) => line.text())
      await eventually(() => expect(lines()).toEqual(['-const a = 1', '+const a = 2', 'keep']))
    }
  })

  it('drops a progress lead the summary already shows, but never empties the progress', () => {
    expect(rowProgress('parallel · 1 subagent · running\nmore', 'parallel')).toBe('1 subagent · running')
    expect(rowProgress('2/3', '')).toBe('2/3')
    expect(rowProgress('parallel', 'parallel')).toBe('parallel')
    expect(rowProgress(undefined, 'x')).toBe('')
  })
})

function child(title: string, displayName = 'Self'): SessionRecord {
  return {
    id: `child-${title}`,
    kind: 'subagent',
    parentSessionId: 'p',
    tapeId: 't',
    title,
    workspaceDir: '/data/scratch/p',
    workspaceIsScratch: true,
    providerId: null,
    modelId: null,
    permissionMode: 'default',
    generationSettings: {},
    subagentMeta: { slotId: 'self', displayName },
    pinned: false,
    status: 'idle',
    createdAt: 1,
    updatedAt: 1,
    lastActivityAt: 1
  } as SessionRecord
}

describe('a subagent child in the sidebar', () => {
  it('reads as its task with the slot beside it, so two children of one slot differ', async () => {
    expect(childLabel(child('Self · Alpha survey'))).toEqual({ title: 'Alpha survey', slot: 'Self' })
    expect(childLabel(child('Renamed by hand'))).toEqual({ title: 'Renamed by hand', slot: 'Self' })
    expect(childLabel(child('Self'))).toEqual({ title: 'Self', slot: null })

    const router = createRouter({
      history: createMemoryHistory(),
      routes: [{ path: '/:p(.*)*', component: { render: () => null } }]
    })
    const items = ['Self · Alpha survey', 'Self · Beta survey'].map((title) =>
      mount(SessionItem, {
        props: { session: child(title), active: false, child: true },
        global: { plugins: [createAppI18n('en-US'), router] }
      })
    )
    expect(items.map((w) => w.get('[data-testid="session-title"]').text())).toEqual([
      'Alpha survey',
      'Beta survey'
    ])
    expect(items.map((w) => w.get('[data-testid="session-slot"]').text())).toEqual(['Self', 'Self'])
    expect(items[1].get('[data-testid="session-title"]').attributes('title')).toBe('Self · Beta survey')
  })
})

describe("a child's request shown in the parent's window", () => {
  it("names the child's task and shows the child's call arguments, read from the back end", async () => {
    bridge = useRealBridge()
    const { sessions } = bridge.presenters
    const parent = sessions.create({ title: 'Parent' })
    const kid = sessions.createSubagent(parent.id, {
      meta: { slotId: 'self', displayName: 'Self' },
      title: 'Self · Note writer'
    })
    const message = sessions.messages.createAssistantMessage(kid.id)
    const params = JSON.stringify({ path: '/outside/child-note.txt', content: 'from the child' })
    const { interactions } = sessions.pauseMessage(message.id, {
      blocks: [
        {
          id: 'blk',
          kind: 'tool_call',
          status: 'pending',
          text: '',
          toolCall: { id: 'w1', name: 'write', params }
        }
      ],
      interactions: [
        { kind: 'permission', blockId: 'blk', toolCallId: 'w1', request: { actionType: 'permission' } }
      ]
    })

    setActivePinia(createPinia())
    const current = ref<PendingInteraction | null>(null)
    let context!: ReturnType<typeof useInteractionContext>
    const Probe = defineComponent({
      setup() {
        context = useInteractionContext({
          sessionId: ref(parent.id),
          current,
          messages: () => [],
          session: (id) => (id === kid.id ? kid : undefined)
        })
        return () => h('div')
      }
    })
    mount(Probe)
    expect(context.askedBy.value).toBeNull()
    current.value = interactions[0]
    await eventually(() => expect(context.args.value).toBe(params))
    expect(context.askedBy.value).toBe('Self · Note writer')
    expect(bridge.calls).toContain('chat.getMessage')
  })
})
