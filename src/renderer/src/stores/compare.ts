import { defineStore } from 'pinia'
import { ref } from 'vue'
import { chatGetMessage } from '@shared/contracts/routes/chat.routes'
import {
  compareDiscard,
  compareKeep,
  compareList,
  compareRespond,
  compareStart,
  compareStop
} from '@shared/contracts/routes/compare.routes'
import { compareUpdated } from '@shared/contracts/events/compare.events'
import { chatStreamDelta } from '@shared/contracts/events/chat.events'
import type { ChatMessageView } from '@shared/types/chat'
import type { CompareModel, CompareView } from '@shared/types/compare'
import { useBridge } from '@renderer/api/bridge'
import { applyOps, judgeDelta } from './lib/applyDelta'

/**
 * The chat's comparisons: the views main sends (`compare.updated` carries the whole view) and
 * each run's streaming answer, folded from the chat's own `chat.stream.delta` events of the
 * run's child session (a gap re-reads the message).
 */
export const useCompareStore = defineStore('compare', () => {
  /** Chat session id -> its comparisons of this app run. */
  const compares = ref<Record<string, CompareView[]>>({})
  /** A run's live message, by message id. */
  const messages = ref<Record<string, ChatMessageView>>({})
  let off: Array<() => void> = []
  const reading = new Set<string>()

  function upsert(sessionId: string, view: CompareView): void {
    const list = compares.value[sessionId] ?? []
    const at = list.findIndex((c) => c.compareId === view.compareId)
    if (at >= 0 && list[at].updatedAt > view.updatedAt) return
    compares.value = {
      ...compares.value,
      [sessionId]: at >= 0 ? list.map((c, i) => (i === at ? view : c)) : [...list, view]
    }
    for (const run of view.runs) if (run.assistantMessageId) void ensureMessage(run.assistantMessageId)
  }

  function isRunMessage(messageId: string): boolean {
    return Object.values(compares.value).some((list) =>
      list.some((c) => c.runs.some((r) => r.assistantMessageId === messageId))
    )
  }

  async function readMessage(messageId: string): Promise<void> {
    if (reading.has(messageId)) return
    reading.add(messageId)
    try {
      const { message } = await useBridge().call(chatGetMessage, { messageId })
      messages.value = { ...messages.value, [messageId]: message }
    } catch {
      // The run's message is gone (a deleted chat): its column shows the view's answer.
    } finally {
      reading.delete(messageId)
    }
  }

  async function ensureMessage(messageId: string): Promise<void> {
    if (!messages.value[messageId]) await readMessage(messageId)
  }

  function listen(): void {
    if (off.length) return
    const bridge = useBridge()
    off = [
      bridge.on(compareUpdated, (p) => upsert(p.sessionId, p.compare)),
      bridge.on(chatStreamDelta, (p) => {
        const message = messages.value[p.messageId]
        if (!message) {
          if (isRunMessage(p.messageId)) void readMessage(p.messageId)
          return
        }
        const verdict = judgeDelta(message.stream, p.runId, p.seq)
        if (verdict === 'apply') {
          applyOps(message, p.ops)
          message.stream = { runId: p.runId, seq: p.seq }
        } else if (verdict === 'gap') void readMessage(p.messageId)
      })
    ]
  }

  async function load(sessionId: string): Promise<void> {
    listen()
    const { compares: list } = await useBridge().call(compareList, { sessionId })
    for (const view of list) upsert(sessionId, view)
  }

  async function start(sessionId: string, prompt: string, models: CompareModel[]): Promise<CompareView> {
    listen()
    const { compare } = await useBridge().call(compareStart, { sessionId, prompt, models })
    upsert(sessionId, compare)
    return compare
  }

  async function stop(view: CompareView, index: number): Promise<void> {
    const { compare } = await useBridge().call(compareStop, { compareId: view.compareId, index })
    upsert(view.sessionId, compare)
    const id = compare.runs[index]?.assistantMessageId
    if (id) await readMessage(id)
  }

  async function keep(view: CompareView, index: number): Promise<void> {
    const { compare } = await useBridge().call(compareKeep, { compareId: view.compareId, index })
    upsert(view.sessionId, compare)
  }

  async function discard(view: CompareView): Promise<void> {
    const { compare } = await useBridge().call(compareDiscard, { compareId: view.compareId })
    upsert(view.sessionId, compare)
  }

  async function respond(
    view: CompareView,
    index: number,
    interaction: { id: string; messageId: string },
    response: unknown
  ): Promise<void> {
    await useBridge().call(compareRespond, {
      compareId: view.compareId,
      index,
      messageId: interaction.messageId,
      interactionId: interaction.id,
      response
    })
  }

  /** The chat's open comparison, if any (one at a time). */
  function openOf(sessionId: string | null): CompareView | null {
    if (!sessionId) return null
    return compares.value[sessionId]?.find((c) => c.status === 'open') ?? null
  }

  function dispose(): void {
    for (const remove of off) remove()
    off = []
  }

  return { compares, messages, load, start, stop, keep, discard, respond, openOf, dispose }
})
