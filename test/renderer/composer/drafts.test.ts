import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import ChatInput, { type ComposerMessage } from '@renderer/components/chat/input/ChatInput.vue'
import { createAppI18n } from '@renderer/i18n'
import { useChatStore } from '@renderer/stores/chat'
import { useComposerStore } from '@renderer/stores/composer'
import { eventually } from '../settings/helpers'
import { useRealBridge } from '../helpers/realBridge'
import { BridgeClient, setBridgeForTesting, useBridge } from '@renderer/api/bridge'
import type { RouteResult } from '@shared/contracts/envelope'
import type { BridgeTransport } from '@renderer/api/transports'
import type { Presenters } from '../../../src/main/presenter'

let bridge: ReturnType<typeof useRealBridge> | undefined
const cleanup: Array<() => void> = []
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) step()
  await bridge?.dispose()
  bridge = undefined
  localStorage.clear()
})

type Invoke = BridgeTransport['invoke']

/** Puts `route` between the window and the back end; the returned function takes it away. */
function intercept(route: (name: string, input: unknown, pass: Invoke) => Promise<RouteResult>): () => void {
  const real = useBridge()
  const pass: Invoke = (name, input) => real.transport.invoke(name, input)
  setBridgeForTesting(
    new BridgeClient({
      kind: real.transport.kind,
      invoke: (name, input) => route(name, input, pass),
      on: (listener) => real.transport.on(listener)
    })
  )
  return () => setBridgeForTesting(real)
}

/** Draft writes from here on leave the window but never reach the back end (a page torn down mid-send). */
function loseDraftWrites(): () => void {
  return intercept((name, input, pass) =>
    name === 'drafts.save' ? new Promise<RouteResult>(() => {}) : pass(name, input)
  )
}

/** Reads of stored drafts wait until `release()` (a busy back end). */
function holdDraftReads(): { release(): void } {
  let open!: () => void
  const gate = new Promise<void>((resolve) => (open = resolve))
  const restore = intercept(async (name, input, pass) => {
    if (name === 'drafts.get') await gate
    return pass(name, input)
  })
  return {
    release() {
      open()
      restore()
    }
  }
}

/** The composer as the chat page has it: one window (a Pinia) whose open chat changes. */
type Send = (message: ComposerMessage) => Promise<boolean>

async function openWindow(presenters: Presenters, sessionId: string | null, send?: Send) {
  const pinia = createPinia()
  setActivePinia(pinia)
  const chat = useChatStore()
  await chat.open(sessionId)
  const sent: Array<ComposerMessage & { sessionId: string | null }> = []
  const wrapper = mount(ChatInput, {
    props: {
      running: false,
      blocked: false,
      locked: sessionId !== null,
      providers: await presenters.llmProviders.listProviders(),
      send: async (message: ComposerMessage) => {
        sent.push({ ...message, sessionId: chat.sessionId })
        return send ? send(message) : true
      }
    },
    global: { plugins: [pinia, createAppI18n('en-US')] },
    attachTo: document.body
  })
  cleanup.push(() => {
    wrapper.unmount()
    chat.dispose()
  })
  const textarea = () => wrapper.get<HTMLTextAreaElement>('[data-testid="chat-input-text"]')
  async function switchTo(id: string | null): Promise<void> {
    await chat.open(id)
    await wrapper.setProps({ locked: id !== null })
  }
  return { wrapper, chat, composer: useComposerStore(pinia), sent, textarea, switchTo }
}

function twoChats(presenters: Presenters) {
  return [presenters.sessions.create({ title: 'A' }).id, presenters.sessions.create({ title: 'B' }).id]
}

describe('drafts per chat', () => {
  it("swaps text and attachments with the chat, and Enter in B never sends A's draft", async () => {
    bridge = useRealBridge()
    const [a, b] = twoChats(bridge.presenters)
    const win = await openWindow(bridge.presenters, a)
    await win.textarea().setValue('half a thought for A')
    await win.composer.addFiles([new File(['secret notes'], 'notes.txt', { type: 'text/plain' })])
    await eventually(() => expect(win.composer.ready.map((x) => x.name)).toEqual(['notes.txt']))

    await win.switchTo(b)
    expect(win.textarea().element.value).toBe('')
    expect(win.composer.attachments).toEqual([])
    await win.textarea().trigger('keydown', { key: 'Enter' })
    expect(win.sent).toEqual([])

    await win.textarea().setValue('only for B')
    await win.textarea().trigger('keydown', { key: 'Enter' })
    await eventually(() => expect(win.sent).toHaveLength(1))
    expect(win.sent[0]).toMatchObject({ text: 'only for B', attachments: [], sessionId: b })

    await win.switchTo(null)
    expect(win.textarea().element.value).toBe('')
    await win.textarea().setValue('a new chat about cats')

    await win.switchTo(a)
    expect(win.textarea().element.value).toBe('half a thought for A')
    expect(win.composer.ready.map((x) => x.name)).toEqual(['notes.txt'])
    await win.switchTo(null)
    expect(win.textarea().element.value).toBe('a new chat about cats')
    // What B sent is no longer its draft.
    await win.switchTo(b)
    expect(win.textarea().element.value).toBe('')
  })

  it('brings each draft back after a reload, from the back end', async () => {
    bridge = useRealBridge()
    const [a, b] = twoChats(bridge.presenters)
    const first = await openWindow(bridge.presenters, a)
    await first.textarea().setValue('kept across reloads')
    await first.composer.addFiles([new File(['x,y\n1,2'], 'table.csv', { type: 'text/csv' })])
    await eventually(() => expect(first.composer.ready).toHaveLength(1))
    await first.switchTo(b)
    await first.textarea().setValue('and B too')
    await first.composer.flushDraft()
    cleanup.splice(0).forEach((step) => step()) // the page goes away

    const second = await openWindow(bridge.presenters, a)
    await eventually(() => expect(second.textarea().element.value).toBe('kept across reloads'))
    expect(second.composer.ready.map((x) => x.name)).toEqual(['table.csv'])
    await second.switchTo(b)
    await eventually(() => expect(second.textarea().element.value).toBe('and B too'))
  })

  it('clears the draft that was sent, even when sending opened a new chat', async () => {
    bridge = useRealBridge()
    const [a] = twoChats(bridge.presenters)
    const win = await openWindow(bridge.presenters, a)
    await win.textarea().setValue('send me')
    await win.textarea().trigger('keydown', { key: 'Enter' })
    await eventually(() => expect(win.sent).toHaveLength(1))
    await win.composer.flushDraft()
    expect(bridge.presenters.drafts.get(a)).toBeNull()
    expect(win.textarea().element.value).toBe('')
  })

  it('never stores the text being sent as the new-chat draft while the send opens its chat', async () => {
    bridge = useRealBridge()
    const { drafts, sessions } = bridge.presenters
    const created = sessions.create({ title: 'opened by the send' }).id
    let duringSend: ReturnType<typeof drafts.get> | undefined
    const win = await openWindow(bridge.presenters, null, async () => {
      // As the chat page does: the window moves to the new chat before the send returns.
      await win.switchTo(created)
      await flushPromises() // the draft writes the switch started have reached the back end
      duringSend = drafts.get(null)
      return true
    })
    await flushPromises() // the composer has read the page's stored draft (none)
    await win.textarea().setValue('hello drafts')
    await win.textarea().trigger('keydown', { key: 'Enter' })
    await eventually(() => expect(win.sent).toHaveLength(1))
    await eventually(() => expect(duringSend).toBeNull())
    await win.composer.flushDraft()
    expect(drafts.get(null)).toBeNull()
  })

  it("brings a chat's stored draft back when the window passed through the chat while it loaded", async () => {
    bridge = useRealBridge()
    const [a, b] = twoChats(bridge.presenters)
    bridge.presenters.drafts.save(a, { text: 'kept for A', attachments: [] })
    const win = await openWindow(bridge.presenters, b)
    // A page load that opens A, then briefly something else, then A again before A's draft arrived.
    void win.composer.switchDraft(a)
    void win.composer.switchDraft(null)
    await win.composer.switchDraft(a)
    await eventually(() => expect(win.composer.text).toBe('kept for A'))
  })

  it('never replaces a stored draft it could not read, and stores what the user then types', async () => {
    bridge = useRealBridge()
    const [a, b] = twoChats(bridge.presenters)
    const drafts = bridge.presenters.drafts
    drafts.save(a, { text: 'kept for A', attachments: [] })
    const win = await openWindow(bridge.presenters, b)
    const read = drafts.get.bind(drafts)
    drafts.get = () => {
      throw new Error('disk I/O error')
    }
    await win.composer.switchDraft(a)
    drafts.get = read
    expect(win.composer.text).toBe('')
    await win.composer.flushDraft()
    expect(drafts.get(a)?.text).toBe('kept for A')
    await win.textarea().setValue('new words for A')
    await win.composer.flushDraft()
    expect(drafts.get(a)?.text).toBe('new words for A')
  })

  it('keeps and stores the text of a send that failed', async () => {
    bridge = useRealBridge()
    const [a] = twoChats(bridge.presenters)
    const win = await openWindow(bridge.presenters, a, async () => false)
    await eventually(async () => {
      await win.textarea().setValue('try again later')
      await win.composer.flushDraft()
      expect(bridge!.presenters.drafts.get(a)?.text).toBe('try again later')
    })
    await win.textarea().setValue('not sent')
    await win.textarea().trigger('keydown', { key: 'Enter' })
    await eventually(() => expect(win.sent).toHaveLength(1))
    expect(win.textarea().element.value).toBe('not sent')
    await eventually(async () => {
      await win.composer.flushDraft()
      expect(bridge!.presenters.drafts.get(a)?.text).toBe('not sent')
    })
  })

  it('brings back a draft whose last write was lost with the page, and stores it', async () => {
    bridge = useRealBridge()
    const [a] = twoChats(bridge.presenters)
    const first = await openWindow(bridge.presenters, a)
    await flushPromises() // A's stored draft (none) has been read
    const restore = loseDraftWrites()
    await first.textarea().setValue('typed just before the reload')
    void first.composer.flushDraft() // the page-hide write, lost with the page
    cleanup.splice(0).forEach((step) => step())
    await flushPromises() // the writes went out on the lossy connection
    restore()
    expect(bridge.presenters.drafts.get(a)).toBeNull()

    const second = await openWindow(bridge.presenters, a)
    await eventually(() => expect(second.textarea().element.value).toBe('typed just before the reload'))
    expect(bridge.presenters.drafts.get(a)?.text).toBe('typed just before the reload')
    expect(Object.keys(localStorage).filter((key) => key.startsWith('deepchat.draft'))).toEqual([])
  })

  it("sends a lost write of another chat at the next load, but never over a newer page's draft", async () => {
    bridge = useRealBridge()
    const [a, b] = twoChats(bridge.presenters)
    const extra = bridge.presenters.sessions.create({ title: 'C' }).id
    const { drafts, sessions } = bridge.presenters
    const first = await openWindow(bridge.presenters, a)
    await flushPromises()
    const restore = loseDraftWrites()
    await first.textarea().setValue('old words for A')
    await first.switchTo(b)
    await first.textarea().setValue('lost words for B')
    await first.switchTo(extra)
    await first.textarea().setValue('words for a chat deleted later')
    void first.composer.flushDraft()
    cleanup.splice(0).forEach((step) => step())
    await flushPromises() // the writes went out on the lossy connection
    restore()
    // Meanwhile another window stored a newer draft of A, and C was deleted.
    drafts.save(a, { text: 'newer, from another window', attachments: [], typedAt: Date.now() + 60_000 })
    sessions.purge(extra)

    const second = await openWindow(bridge.presenters, a)
    await eventually(() => expect(second.textarea().element.value).toBe('newer, from another window'))
    await eventually(() => expect(drafts.get(b)?.text).toBe('lost words for B'))
    await eventually(() =>
      expect(Object.keys(localStorage).filter((key) => key.startsWith('deepchat.draft'))).toEqual([])
    )
  })

  it('ignores a kept write it cannot read, and a storage that refuses writes', async () => {
    bridge = useRealBridge()
    const [a, b] = twoChats(bridge.presenters)
    bridge.presenters.drafts.save(a, { text: 'stored for A', attachments: [] })
    localStorage.setItem(`deepchat.draft.unconfirmed:${a}`, '{"sessionId": 42, "text"')
    localStorage.setItem(`deepchat.draft.unconfirmed:${b}`, JSON.stringify({ sessionId: b, text: 1 }))
    const win = await openWindow(bridge.presenters, a)
    await eventually(() => expect(win.textarea().element.value).toBe('stored for A'))
    await eventually(() =>
      expect(Object.keys(localStorage).filter((key) => key.startsWith('deepchat.draft'))).toEqual([])
    )
    const full = vi.spyOn(localStorage, 'setItem').mockImplementation(() => {
      throw new DOMException('quota exceeded', 'QuotaExceededError')
    })
    cleanup.push(() => full.mockRestore())
    expect(() => localStorage.setItem('probe', 'x')).toThrow('quota exceeded')
    await win.textarea().setValue('still stored without the window storage')
    await win.composer.flushDraft()
    expect(bridge.presenters.drafts.get(a)?.text).toBe('still stored without the window storage')
  })

  it('keeps what was typed before the stored draft arrived, with the stored files, across a reload', async () => {
    bridge = useRealBridge()
    const [a] = twoChats(bridge.presenters)
    const before = await openWindow(bridge.presenters, a)
    await flushPromises()
    await before.textarea().setValue('stored words')
    await before.composer.addFiles([new File(['secret notes'], 'notes.txt', { type: 'text/plain' })])
    await eventually(() => expect(before.composer.ready).toHaveLength(1))
    await before.composer.flushDraft()
    cleanup.splice(0).forEach((step) => step())

    const reads = holdDraftReads()
    const first = await openWindow(bridge.presenters, a)
    await first.textarea().setValue('typed while it loaded')
    await first.composer.flushDraft() // the page goes away before A's draft arrived
    cleanup.splice(0).forEach((step) => step())
    reads.release()

    const second = await openWindow(bridge.presenters, a)
    await eventually(() => expect(second.textarea().element.value).toBe('typed while it loaded'))
    await eventually(() => expect(second.composer.ready.map((x) => x.name)).toEqual(['notes.txt']))
    const stored = bridge.presenters.drafts.get(a)
    expect(stored?.text).toBe('typed while it loaded')
    expect(stored?.attachments.map((x) => x.name)).toEqual(['notes.txt'])
  })
})
