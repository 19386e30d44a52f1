import { afterEach, describe, expect, it } from 'vitest'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import ChatInput, { type ComposerMessage } from '@renderer/components/chat/input/ChatInput.vue'
import { createAppI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/stores/chat'
import { useChatOptionsStore } from '@renderer/stores/chatOptions'
import { useAppStore } from '@renderer/stores/app'
import { eventually } from '../settings/helpers'
import { useRealBridge } from '../helpers/realBridge'
import type { Presenters } from '../../../src/main/presenter'

const TEST_SERVER = join(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'testServer.mjs')

let bridge: ReturnType<typeof useRealBridge> | undefined
const cleanup: Array<() => void> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) step()
  await bridge?.dispose()
  bridge = undefined
})

async function addProvider(presenters: Presenters): Promise<void> {
  await presenters.llmProviders.addProvider({
    id: 'p',
    kind: 'openai',
    name: 'Provider',
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: 'sk-test-0123456789abcd',
    models: [
      { id: 'alpha', name: 'Alpha' },
      { id: 'beta', name: 'Beta' }
    ]
  })
}

function newWorkspace(): string {
  const workspace = mkdtempSync(join(tmpdir(), 'chat-ws-'))
  cleanup.push(() => rmSync(workspace, { recursive: true, force: true }))
  return workspace
}

/** The input area of the chat `sessionId` (null: the new-chat page), wired to the real back end. */
async function mountInput(
  presenters: Presenters,
  sessionId: string | null,
  workspace: string,
  send: (message: ComposerMessage) => Promise<boolean> = async () => true
) {
  const pinia = createPinia()
  setActivePinia(pinia)
  await useChatStore().open(sessionId)
  // What the new-chat page starts with (an open chat shows its own settings instead).
  useChatOptionsStore().draft = {
    providerId: 'p',
    modelId: 'alpha',
    permissionMode: 'default',
    workspaceDir: workspace
  }
  // Stores stop listening before the back end shuts down and announces its servers stopping.
  cleanup.push(() => {
    for (const store of (pinia as unknown as { _s: Map<string, { dispose?: () => void }> })._s.values())
      store.dispose?.()
  })
  const wrapper = mount(ChatInput, {
    props: {
      running: false,
      blocked: false,
      locked: sessionId !== null,
      providers: await presenters.llmProviders.listProviders(),
      send
    },
    global: { plugins: [pinia, createAppI18n('en-US')] },
    attachTo: document.body
  })
  cleanup.push(() => wrapper.unmount())
  return wrapper
}

/** The input area of an existing chat, wired to the real back end. */
async function openExistingChat(send?: (message: ComposerMessage) => Promise<boolean>) {
  bridge = useRealBridge()
  const { presenters } = bridge
  await addProvider(presenters)
  const workspace = newWorkspace()
  const session = presenters.sessions.create({
    title: 'Existing',
    providerId: 'p',
    modelId: 'alpha',
    workspaceDir: workspace
  })
  const wrapper = await mountInput(presenters, session.id, workspace, send)
  await eventually(() =>
    expect((wrapper.get('[data-testid="model-picker"]').element as HTMLSelectElement).disabled).toBe(false)
  )
  return { wrapper, presenters, sessionId: session.id, workspace }
}

/** A row reads as on when its box is ticked and no note says the model will not get it. */
function readsOn(wrapper: VueWrapper, kind: 'tool' | 'mcp', id: string): boolean {
  const box = wrapper.get(`[data-testid="${kind}-toggle-${id}"]`).element as HTMLInputElement
  return box.checked && !wrapper.find(`[data-testid="${kind}-blocked-${id}"]`).exists()
}

/** Every enabled MCP server has finished starting (its state is final for the test). */
async function serversSettled(presenters: Presenters): Promise<void> {
  await eventually(
    () =>
      expect(presenters.mcp.listServers().filter((s) => s.enabled && s.status.state === 'starting')).toEqual(
        []
      ),
    20_000
  )
}

describe('chat input on an existing chat', () => {
  it("changes the chat's model through the picker", async () => {
    const { wrapper, presenters, sessionId } = await openExistingChat()
    const picker = wrapper.get('[data-testid="model-picker"]')
    expect((picker.element as HTMLSelectElement).value).toBe('p\u0000alpha')
    await picker.setValue('p\u0000beta')
    await eventually(() => expect(presenters.sessions.require(sessionId).modelId).toBe('beta'))
    await eventually(() => expect((picker.element as HTMLSelectElement).value).toBe('p\u0000beta'))
  })

  it('widens to full access only after confirmation; cancel keeps the old mode', async () => {
    const { wrapper, presenters, sessionId } = await openExistingChat()
    const picker = wrapper.get('[data-testid="permission-mode-picker"]')
    await picker.setValue('full_access')
    await eventually(() => expect(document.querySelector('[data-testid="confirm-dialog"]')).not.toBeNull())
    expect((picker.element as HTMLSelectElement).value).toBe('default')
    ;(document.querySelector('[data-testid="confirm-cancel"]') as HTMLButtonElement).click()
    await flushPromises()
    expect(document.querySelector('[data-testid="confirm-dialog"]')).toBeNull()
    expect(presenters.sessions.require(sessionId).permissionMode).toBe('default')

    await picker.setValue('full_access')
    await eventually(() => expect(document.querySelector('[data-testid="confirm-ok"]')).not.toBeNull())
    ;(document.querySelector('[data-testid="confirm-ok"]') as HTMLButtonElement).click()
    await eventually(() => expect(presenters.sessions.require(sessionId).permissionMode).toBe('full_access'))
    await eventually(() => expect(wrapper.find('[data-testid="full-access-warning"]').exists()).toBe(true))
    // Narrowing needs no confirmation.
    await picker.setValue('accept_edits')
    await eventually(() => expect(presenters.sessions.require(sessionId).permissionMode).toBe('accept_edits'))
  })

  it('explains a refused workspace path and applies an existing folder', async () => {
    const { wrapper, presenters, sessionId, workspace } = await openExistingChat()
    expect(wrapper.find('[data-testid="workspace-choose"]').exists()).toBe(false) // no native dialog outside Electron
    const field = wrapper.get('[data-testid="workspace-input"]')
    await field.setValue(join(workspace, 'missing'))
    await field.trigger('change')
    await eventually(() =>
      expect(wrapper.get('[data-testid="settings-error"]').text()).toContain(
        'absolute path of an existing folder'
      )
    )
    expect(presenters.sessions.require(sessionId).workspaceDir).toBe(workspace)

    const other = mkdtempSync(join(tmpdir(), 'chat-ws2-'))
    cleanup.push(() => rmSync(other, { recursive: true, force: true }))
    await field.setValue(other)
    await field.trigger('change')
    await eventually(() => expect(presenters.sessions.require(sessionId).workspaceDir).toBe(other))
    expect(wrapper.find('[data-testid="settings-error"]').exists()).toBe(false)
  })

  it('switches a built-in tool off for this chat only, grouped in the popover', async () => {
    const { wrapper, presenters, sessionId } = await openExistingChat()
    await wrapper.get('[data-testid="tools-button"]').trigger('click')
    await eventually(() =>
      expect(wrapper.get('[data-testid="tools-popover"]').attributes('data-scope')).toBe('session')
    )
    expect(wrapper.get('[data-testid="tool-group-agent-filesystem"]').text()).toContain('Files and commands')
    const write = wrapper.get('[data-testid="tool-toggle-write"]')
    expect((write.element as HTMLInputElement).checked).toBe(true)
    await write.setValue(false)
    await eventually(() =>
      expect(presenters.sessionSettings.get(sessionId).tools.find((t) => t.name === 'write')?.enabled).toBe(
        false
      )
    )
    expect(presenters.config.getSettings().disabledAgentTools).toEqual([])
    // The built-in MCP servers are listed with their state and a switch of their own.
    const servers = presenters.mcp.listServers()
    expect(servers.length).toBeGreaterThan(0)
    await eventually(() =>
      expect(wrapper.find(`[data-testid="mcp-toggle-${servers[0].id}"]`).exists()).toBe(true)
    )
    await wrapper.get(`[data-testid="mcp-toggle-${servers[0].id}"]`).setValue(false)
    await eventually(() =>
      expect(presenters.sessionSettings.get(sessionId).mcpServers[0].enabled).toBe(false)
    )
    expect(presenters.mcp.getServer(servers[0].id).enabled).toBe(servers[0].enabled)
  })

  it('shows as on exactly the built-in tools and MCP servers the model gets in this chat', async () => {
    const { wrapper, presenters, sessionId, workspace } = await openExistingChat()
    // Enabled but unable to start: on for the chat, yet it has no tools to offer.
    await presenters.mcp.addServer({
      id: 'broken',
      name: 'Broken',
      type: 'stdio',
      command: join(workspace, 'none')
    })
    await serversSettled(presenters)
    await wrapper.get('[data-testid="tools-button"]').trigger('click')
    await eventually(() => expect(wrapper.find('[data-testid="mcp-toggle-broken"]').exists()).toBe(true))

    const definitions = await presenters.tools.getAllToolDefinitions({ sessionId, workspaceDir: workspace })
    const offered = new Set(definitions.map((d) => d.function.name))
    const offeringServers = new Set(definitions.filter((d) => d.source === 'mcp').map((d) => d.server.id))
    for (const tool of presenters.sessionSettings.get(sessionId).tools)
      expect(readsOn(wrapper, 'tool', tool.name), tool.name).toBe(offered.has(tool.name))
    for (const server of presenters.mcp.listServers())
      expect(readsOn(wrapper, 'mcp', server.id), server.id).toBe(offeringServers.has(server.id))
    // What used to read as on: tools that wait for a skill or an image model, servers off or down.
    expect(wrapper.get('[data-testid="tool-blocked-deepchat_settings_read"]').text()).toBe(
      'Not available in this chat'
    )
    expect(wrapper.find('[data-testid="tool-blocked-image_generate"]').exists()).toBe(true)
    expect(wrapper.get('[data-testid="mcp-blocked-deepchat-history"]').text()).toBe('Off in Settings › MCP')
    expect(wrapper.get('[data-testid="mcp-blocked-broken"]').text()).toBe('No tools until it runs')
    expect(offeringServers.size).toBeGreaterThan(0)
  }, 30_000)

  it("counts each server's tools as the chat's next request carries them, with friendly names", async () => {
    const { wrapper, presenters, sessionId, workspace } = await openExistingChat()
    await presenters.mcp.addServer({
      id: 't',
      name: 'Test server',
      type: 'stdio',
      command: process.execPath,
      args: [TEST_SERVER],
      enabled: false
    })
    await presenters.mcp.startServer('t')
    await serversSettled(presenters)
    await wrapper.get('[data-testid="tools-button"]').trigger('click')
    const definitions = await presenters.tools.getAllToolDefinitions({ sessionId, workspaceDir: workspace })
    const perServer = (id: string) =>
      definitions.filter((d) => d.source === 'mcp' && d.server.id === id).length
    expect(perServer('t')).toBeGreaterThan(3)
    await eventually(() =>
      expect(wrapper.get('[data-testid="mcp-count-t"]').text()).toBe(`${perServer('t')} tools`)
    )
    for (const server of presenters.mcp.listServers().filter((s) => perServer(s.id) > 0))
      expect(wrapper.get(`[data-testid="mcp-count-${server.id}"]`).text()).toBe(
        `${perServer(server.id)} tools`
      )
    expect(wrapper.get('[data-testid="tools-offered-count"]').text()).toBe(
      `The model gets ${definitions.length} tools in this chat.`
    )
    expect(wrapper.get('[data-testid="tool-label-write"]').text()).toBe('Write file')

    // Switched off for the chat: the server carries nothing and the total drops by its tools.
    await wrapper.get('[data-testid="mcp-toggle-t"]').setValue(false)
    await eventually(() => expect(wrapper.get('[data-testid="mcp-count-t"]').text()).toBe('0 tools'))
    expect(wrapper.get('[data-testid="tools-offered-count"]').text()).toBe(
      `The model gets ${definitions.length - perServer('t')} tools in this chat.`
    )
  }, 30_000)

  it('before the first message, marks the diagnostic tools no new chat gets', async () => {
    bridge = useRealBridge()
    const { presenters } = bridge
    await addProvider(presenters)
    const workspace = newWorkspace()
    const wrapper = await mountInput(presenters, null, workspace)
    await wrapper.get('[data-testid="tools-button"]').trigger('click')
    await eventually(() => expect(wrapper.find('[data-testid="tool-toggle-tape_info"]').exists()).toBe(true))
    expect(wrapper.get('[data-testid="tools-popover"]').attributes('data-scope')).toBe('app')
    expect(wrapper.get('[data-testid="tool-blocked-tape_info"]').text()).toBe(
      'Off in new chats: switch it on in a chat'
    )
    expect(readsOn(wrapper, 'tool', 'read')).toBe(true)
    // A server's app-wide switch is its own `enabled`; it offers tools only while it runs.
    await serversSettled(presenters)
    for (const server of presenters.mcp.listServers())
      await eventually(() =>
        expect(readsOn(wrapper, 'mcp', server.id), server.id).toBe(server.status.state === 'running')
      )

    const session = presenters.sessions.create({
      title: 'New',
      providerId: 'p',
      modelId: 'alpha',
      workspaceDir: workspace
    })
    const names = (
      await presenters.tools.getAllToolDefinitions({ sessionId: session.id, workspaceDir: workspace })
    ).map((d) => d.function.name)
    expect(names).toContain('read')
    expect(names).not.toContain('tape_info')
  })

  it('shows a server starting up while the popover is open', async () => {
    const { wrapper, presenters } = await openExistingChat()
    await presenters.mcp.addServer({
      id: 't',
      name: 'Test server',
      type: 'stdio',
      command: process.execPath,
      args: [TEST_SERVER],
      enabled: false
    })
    await wrapper.get('[data-testid="tools-button"]').trigger('click')
    await eventually(() => expect(wrapper.get('[data-testid="mcp-state-t"]').text()).toBe('Stopped'))
    await presenters.mcp.startServer('t')
    await eventually(() => expect(wrapper.get('[data-testid="mcp-state-t"]').text()).toBe('Running'), 20_000)
  }, 30_000)

  it('sends on Enter, keeps Shift+Enter for a new line, and offers Stop while a run is active', async () => {
    const sent: ComposerMessage[] = []
    const { wrapper } = await openExistingChat(async (message) => {
      sent.push(message)
      return true
    })
    const input = wrapper.get('[data-testid="chat-input-text"]')
    const press = (shiftKey: boolean) => {
      const event = new KeyboardEvent('keydown', { key: 'Enter', shiftKey, bubbles: true, cancelable: true })
      input.element.dispatchEvent(event)
      return event
    }
    await input.setValue('line one')
    // Shift+Enter is left to the textarea (its default adds the line break); nothing is sent.
    expect(press(true).defaultPrevented).toBe(false)
    await flushPromises()
    expect(sent).toEqual([])
    await input.setValue('line one\nline two')
    expect(press(false).defaultPrevented).toBe(true)
    await flushPromises()
    expect(sent).toEqual([{ text: 'line one\nline two', attachments: [] }])
    expect((input.element as HTMLTextAreaElement).value).toBe('')

    await wrapper.setProps({ running: true })
    expect(wrapper.find('[data-testid="send-button"]').exists()).toBe(false)
    await wrapper.get('[data-testid="stop-button"]').trigger('click')
    expect(wrapper.emitted('stop')).toHaveLength(1)
  })

  it('shows in the parameters panel what the model changed through its settings tools', async () => {
    const { wrapper, presenters, sessionId } = await openExistingChat()
    await presenters.sessionSettings.updateForModel(sessionId, {
      temperature: 0.2,
      systemPrompt: 'Speak like a pirate.'
    })
    await wrapper.get('[data-testid="chat-params-button"]').trigger('click')
    await eventually(() =>
      expect((wrapper.get('[data-testid="params-temperature"]').element as HTMLInputElement).value).toBe(
        '0.2'
      )
    )
    expect((wrapper.get('[data-testid="params-system-prompt"]').element as HTMLTextAreaElement).value).toBe(
      'Speak like a pirate.'
    )
    // And a change in the panel reaches the chat's settings.
    await wrapper.get('[data-testid="params-temperature"]').setValue('0.7')
    await wrapper.get('[data-testid="chat-params-panel"]').trigger('submit')
    await eventually(() =>
      expect(presenters.sessionSettings.get(sessionId).generation).toEqual({
        temperature: 0.7,
        systemPrompt: 'Speak like a pirate.'
      })
    )
  })

  it('keeps the text when a send fails, and refuses to send visibly while disconnected', async () => {
    let accept = false
    const { wrapper } = await openExistingChat(async () => accept)
    const input = wrapper.get('[data-testid="chat-input-text"]')
    await input.setValue('keep me')
    await wrapper.get('[data-testid="chat-input"]').trigger('submit')
    await flushPromises()
    expect((input.element as HTMLTextAreaElement).value).toBe('keep me')

    useAppStore().connected = false
    await flushPromises()
    const button = wrapper.get('[data-testid="send-button"]')
    expect((button.element as HTMLButtonElement).disabled).toBe(true)
    expect(button.attributes('title')).toMatch(/disconnected/i)
    expect(wrapper.get('[data-testid="composer-offline"]').text()).toMatch(/disconnected/i)
    accept = true
    await wrapper.get('[data-testid="chat-input"]').trigger('submit')
    await flushPromises()
    expect((input.element as HTMLTextAreaElement).value).toBe('keep me')

    useAppStore().connected = true
    await flushPromises()
    await wrapper.get('[data-testid="chat-input"]').trigger('submit')
    await flushPromises()
    expect((input.element as HTMLTextAreaElement).value).toBe('')
  })
})
