import { afterEach, describe, expect, it } from 'vitest'
import { createPinia, setActivePinia } from 'pinia'
import { useChatOptionsStore } from '@renderer/stores/chatOptions'
import { useChatStore } from '@renderer/stores/chat'
import { useRealBridge } from '../helpers/realBridge'
import type { Presenters } from '../../../src/main/presenter'

let bridge: ReturnType<typeof useRealBridge> | undefined
afterEach(async () => {
  window.localStorage.clear()
  await bridge?.dispose()
  bridge = undefined
})

async function withProvider(): Promise<Presenters> {
  bridge = useRealBridge()
  await bridge.presenters.llmProviders.addProvider({
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
  return bridge.presenters
}

/** A fresh window (a reload): new stores, the same back end and local storage. */
async function openWindow() {
  setActivePinia(createPinia())
  const options = useChatOptionsStore()
  await options.loadDefaults()
  return options
}

describe("a chat's options", () => {
  it("start a new chat with Settings' default model (else the first enabled one), and the user's last choice wins after a reload", async () => {
    const presenters = await withProvider()
    expect((await openWindow()).draft).toEqual({
      providerId: 'p',
      modelId: 'alpha',
      permissionMode: 'default',
      workspaceDir: ''
    })

    presenters.llmProviders.setDefaultModel({ providerId: 'p', modelId: 'beta' })
    const options = await openWindow()
    expect(options.current.modelId).toBe('beta')

    await options.update({ providerId: 'p', modelId: 'alpha', permissionMode: 'accept_edits' })
    expect((await openWindow()).draft).toMatchObject({ modelId: 'alpha', permissionMode: 'accept_edits' })

    // A kept model that is no longer there gives way to the default.
    await presenters.llmProviders.updateProvider('p', { models: [{ id: 'beta', name: 'Beta' }] })
    expect((await openWindow()).draft).toMatchObject({ modelId: 'beta', permissionMode: 'accept_edits' })
  })

  it("give a new chat Settings' default mode even when it is sent while the page still reads the defaults", async () => {
    const presenters = await withProvider()
    presenters.config.updateSettings({ defaultPermissionMode: 'full_access' })
    setActivePinia(createPinia())
    const options = useChatOptionsStore()
    const loading = options.loadDefaults()
    // Sent at once, as a fast user (or a slow machine) does: the defaults are not chosen yet.
    expect(options.draft.permissionMode).toBe('default')
    const newSession = await options.takeNewSessionWhenReady()
    expect(newSession.permissionMode).toBe('full_access')
    await loading
  })

  it('keeps an ACP agent the user picked while the page still read the defaults, and after a reload', async () => {
    const presenters = await withProvider()
    await presenters.acp.addCustomAgent({
      id: 'fake',
      name: 'Fake agent',
      command: process.execPath,
      args: []
    })
    setActivePinia(createPinia())
    const options = useChatOptionsStore()
    const loading = options.loadDefaults()
    // Picked from the Agents group before the providers' list arrived.
    await options.update({ providerId: 'acp', modelId: 'fake' })
    await loading
    expect(options.draft).toMatchObject({ providerId: 'acp', modelId: 'fake' })
    expect((await options.takeNewSessionWhenReady()).modelId).toBe('fake')
    expect((await openWindow()).draft).toMatchObject({ providerId: 'acp', modelId: 'fake' })

    // An agent turned off gives way to the default model.
    await presenters.acp.setEnabled('fake', false)
    expect((await openWindow()).draft).toMatchObject({ providerId: 'p', modelId: 'alpha' })
  })

  it("show an open chat its own settings and change the chat's, never the new chat's draft", async () => {
    const presenters = await withProvider()
    const session = presenters.sessions.create({ title: 'A', providerId: 'p', modelId: 'beta' })
    const options = await openWindow()
    const chat = useChatStore()
    await chat.open(session.id)
    await chat.loadSettings()
    expect(options.waiting).toBe(false)
    expect(options.current).toMatchObject({ providerId: 'p', modelId: 'beta' })

    await options.update({ providerId: 'p', modelId: 'alpha', permissionMode: 'accept_edits' })
    expect(presenters.sessions.get(session.id)).toMatchObject({
      modelId: 'alpha',
      permissionMode: 'accept_edits'
    })
    expect(options.current).toMatchObject({ modelId: 'alpha', permissionMode: 'accept_edits' })
    expect(options.draft.permissionMode).toBe('default')
    expect(window.localStorage.getItem('deepchat.newChatDraft')).toBeNull()
    chat.dispose()
  })

  it('spends a picked folder with the send that creates the chat', async () => {
    await withProvider()
    const options = await openWindow()
    options.setDraft({ workspaceDir: '/picked/folder', workspaceToken: 'pick-token' })
    expect(options.takeNewSession()).toMatchObject({ workspaceDir: 'pick-token', modelId: 'alpha' })
    // The token is single use; the folder stays shown for the next new chat.
    expect(options.draft).toMatchObject({ workspaceDir: '/picked/folder' })
    expect(options.draft.workspaceToken).toBeUndefined()
    expect(options.takeNewSession().workspaceDir).toBe('/picked/folder')
  })
})
