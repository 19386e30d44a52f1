import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { acpSessionChanged } from '@shared/contracts/events/acp.events'
import type { AcpSessionState } from '@shared/types/acp'
import type { BlockOf } from '@shared/types/blocks'
import { createAppI18n } from '@renderer/i18n'
import ModelPicker from '@renderer/components/chat/input/ModelPicker.vue'
import AcpSessionBar from '@renderer/components/chat/acp/AcpSessionBar.vue'
import AcpToolCallDetails from '@renderer/components/chat/acp/AcpToolCallDetails.vue'
import { useRealBridge } from '../helpers/realBridge'
import { eventually } from '../settings/helpers'

let bridge: ReturnType<typeof useRealBridge> | undefined
let pinia: ReturnType<typeof createPinia> | undefined
const unmounts: Array<() => void> = []
afterEach(async () => {
  for (const unmount of unmounts.splice(0)) unmount()
  for (const store of (
    pinia as unknown as { _s: Map<string, { dispose?: () => void }> } | undefined
  )?._s.values() ?? [])
    store.dispose?.()
  await bridge?.dispose()
  bridge = undefined
})

function mountWith<P extends object>(component: object, props: P) {
  pinia = createPinia()
  setActivePinia(pinia)
  const wrapper = mount(component as never, {
    props: props as never,
    global: { plugins: [pinia, createAppI18n('en-US')] },
    attachTo: document.body
  })
  unmounts.push(() => wrapper.unmount())
  return wrapper
}

function sessionState(): AcpSessionState {
  return {
    chatSessionId: 'chat-1',
    agentId: 'fake',
    sessionId: 'fake-session',
    workspaceDir: '/w',
    modes: {
      currentModeId: 'ask',
      availableModes: [
        { id: 'ask', name: 'Ask', description: null },
        { id: 'code', name: 'Code', description: null }
      ]
    },
    models: {
      currentModelId: 'fast',
      availableModels: [
        { id: 'fast', name: 'Fast', description: null },
        { id: 'smart', name: 'Smart', description: null }
      ],
      via: 'config_option',
      configId: 'model'
    },
    commands: [{ name: 'review', description: 'Review the changes', inputHint: null }],
    configOptions: [],
    title: null
  }
}

describe('agents in the chat window', () => {
  it('lists enabled agents as an "Agents" group of the model picker, and picks one as acp/<id>', async () => {
    bridge = useRealBridge()
    await bridge.presenters.acp.addCustomAgent({ id: 'fake', name: 'Fake agent', command: 'fake-agent' })
    await bridge.presenters.acp.addCustomAgent({ id: 'off', name: 'Switched off', command: 'off-agent' })
    await bridge.presenters.acp.setEnabled('off', false)
    const wrapper = mountWith(ModelPicker, { providers: [], providerId: null, modelId: null })
    await eventually(() => expect(wrapper.find('optgroup[label="Agents"]').exists()).toBe(true))
    const options = wrapper.findAll('optgroup[label="Agents"] option')
    expect(options.map((o) => o.text())).toEqual(['Fake agent'])
    await wrapper.get('select').setValue('acp\u0000fake')
    expect(wrapper.emitted('change')?.[0]).toEqual([{ providerId: 'acp', modelId: 'fake' }])
    // An agent turned on elsewhere appears without a reload.
    await bridge.presenters.acp.setEnabled('off', true)
    await eventually(() => expect(wrapper.findAll('optgroup[label="Agents"] option')).toHaveLength(2))
  })

  it('shows an agent chat’s modes, models and slash commands from main; a command starts the message', async () => {
    bridge = useRealBridge()
    await bridge.presenters.acp.addCustomAgent({ id: 'fake', name: 'Fake agent', command: 'fake-agent' })
    const wrapper = mountWith(AcpSessionBar, { sessionId: 'chat-1', providerId: 'acp', modelId: 'fake' })
    await eventually(() => expect(wrapper.find('[data-testid="acp-session-pending"]').exists()).toBe(true))
    expect(wrapper.text()).toContain('Fake agent shows its modes')
    bridge.presenters.events.emit(acpSessionChanged, { state: sessionState() })
    await eventually(() => expect(wrapper.find('[data-testid="acp-mode"]').exists()).toBe(true))
    expect((wrapper.get('[data-testid="acp-mode"]').element as HTMLSelectElement).value).toBe('ask')
    expect((wrapper.get('[data-testid="acp-model"]').element as HTMLSelectElement).value).toBe('fast')
    // Each select says on screen what it switches, not only to a screen reader.
    for (const [id, label] of [
      ['acp-mode', 'Mode'],
      ['acp-model', 'Agent model'],
      ['acp-commands', 'Commands']
    ]) {
      const caption = wrapper.get(`[data-testid="${id}-label"]`)
      expect(caption.text()).toBe(label)
      expect(caption.classes()).not.toContain('sr-only')
    }
    await wrapper.get('[data-testid="acp-commands"]').setValue('review')
    expect(wrapper.emitted('insert')?.[0]).toEqual(['/review '])
  })

  it('shows nothing for a chat whose model is an LLM', async () => {
    bridge = useRealBridge()
    const wrapper = mountWith(AcpSessionBar, { sessionId: 'chat-1', providerId: 'openai', modelId: 'gpt' })
    await flushPromises()
    expect(wrapper.find('[data-testid="acp-session-bar"]').exists()).toBe(false)
  })

  it('shows an agent tool call’s kind, files, diff and terminal', async () => {
    const block: BlockOf<'tool_call'> = {
      id: 'b1',
      kind: 'tool_call',
      status: 'success',
      text: '',
      createdAt: 1,
      updatedAt: 1,
      toolCall: { id: 'c1', name: 'acp_edit', params: '{}', serverName: 'Fake agent' },
      data: {
        acp: {
          agentId: 'fake',
          title: 'Edit notes.txt',
          kind: 'edit',
          locations: [{ path: '/w/notes.txt', line: 3 }],
          content: [
            { type: 'diff', path: '/w/notes.txt', oldText: 'old line\n', newText: 'new line\n' },
            {
              type: 'terminal',
              terminalId: 't1',
              command: 'npm test',
              output: 'all green',
              truncated: false,
              exitStatus: { exitCode: 0, signal: null },
              sandboxed: true
            }
          ]
        }
      }
    }
    const wrapper = mountWith(AcpToolCallDetails, { block })
    expect(wrapper.get('[data-testid="acp-tool-title"]').text()).toBe('Edit notes.txt')
    expect(wrapper.get('[data-testid="acp-tool-location"]').text()).toBe('/w/notes.txt:3')
    // The diff view loads on first use.
    await vi.waitFor(() => expect(wrapper.get('[data-testid="acp-tool-diff"]').text()).toContain('-old line'))
    const diff = wrapper.get('[data-testid="acp-tool-diff"]').text()
    expect(diff).toContain('-old line')
    expect(diff).toContain('+new line')
    const terminal = wrapper.get('[data-testid="acp-tool-terminal"]').text()
    expect(terminal).toContain('$ npm test')
    expect(terminal).toContain('all green')
    expect(terminal).toContain('ran in the sandbox')
    expect(terminal).toContain('exit 0')
  })
})
