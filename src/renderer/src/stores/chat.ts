import { defineStore } from 'pinia'
import { computed, reactive, ref, shallowRef } from 'vue'
import {
  chatCancelQueued,
  chatDeleteMessage,
  chatEditAndResend,
  chatGetMessage,
  chatGetMessages,
  chatRespondToolInteraction,
  chatRestoreMessages,
  chatRetry,
  chatSelectVariant,
  chatSendMessage,
  chatStop
} from '@shared/contracts/routes/chat.routes'
import {
  chatBranchChanged,
  chatMessageCreated,
  chatMessagesSuperseded,
  chatQueueChanged,
  chatStreamCompleted,
  chatStreamDelta,
  chatStreamFailed,
  chatStreamPaused,
  chatStreamRetrying
} from '@shared/contracts/events/chat.events'
import { mcpToolsDeferred } from '@shared/contracts/events/mcp.events'
import { chatFindText } from '@shared/contracts/routes/chatFind.routes'
import { sessionsInteractionsChanged, sessionsUpdated } from '@shared/contracts/events/sessions.events'
import {
  sessionsFork,
  sessionsGetSettings,
  sessionsListInteractions,
  sessionsUpdateSettings,
  type SessionSettingsPatch,
  type SessionSettingsView
} from '@shared/contracts/routes/sessions.routes'
import type { EventPayload } from '@shared/contracts/define'
import type { ChatMessageView, InteractionResponse, QueuedInput } from '@shared/types/chat'
import type { GenerationSettings, PendingInteraction, SessionRecord } from '@shared/types/session'
import type { PermissionMode } from '@shared/types/permission'
import type { AttachmentInput } from '@shared/types/attachments'
import { useBridge } from '@renderer/api/bridge'
import { errorText } from '@renderer/lib/errorText'
import { plain } from './lib/plain'
import { mergeSnapshot } from './lib/mergeSnapshot'
import { applyOps, isVisibleMessage, judgeDelta } from '@renderer/stores/lib/applyDelta'

type DeltaPayload = EventPayload<typeof chatStreamDelta>
export type RetryNotice = EventPayload<typeof chatStreamRetrying>
const PAGE = 60

/**
 * The open chat: its messages (a page at a time, newest first), the live stream applied as
 * per-block deltas, the pending permission requests and questions, and the steering queue.
 */
export const useChatStore = defineStore('chat', () => {
  const sessionId = ref<string | null>(null)
  /** Shallow: the list itself changes rarely; each message object is reactive on its own. */
  const messages = shallowRef<ChatMessageView[]>([])
  const hasMore = ref(false)
  const loading = ref(false)
  const interactions = ref<PendingInteraction[]>([])
  const queue = ref<QueuedInput[]>([])
  const lastError = ref<string | null>(null)
  /** The open chat's model, permission mode, workspace and tool switches (its input area shows these). */
  const settings = ref<SessionSettingsView | null>(null)
  /** Sessions whose interactions the dialogs show: the open one and its subagent children. */
  const watchedSessionIds = ref<string[]>([])
  /** Messages whose provider request waits to be retried (the countdown), by message id. */
  const retrying = reactive<Record<string, RetryNotice>>({})
  /** The open chat's MCP tools went behind tool search (`mcp.tools.deferred`), until dismissed. */
  const toolsDeferred = ref<{ sessionId: string; total: number; limit: number } | null>(null)
  /** The last delete, which the undo toast offers to take back. */
  const lastDeleted = ref<{ sessionId: string; messageIds: string[] } | null>(null)
  const byId = new Map<string, ChatMessageView>()
  const refetching = new Map<string, DeltaPayload[]>()
  let unsubscribers: Array<() => void> = []
  let openToken = 0
  let settingsTimer: ReturnType<typeof setTimeout> | undefined

  const visibleMessages = computed(() => messages.value.filter(isVisibleMessage))
  const activeAssistant = computed(() =>
    [...messages.value]
      .reverse()
      .find((m) => m.role === 'assistant' && (m.status === 'pending' || m.status === 'streaming'))
  )
  const pendingInteractions = computed(() => interactions.value.filter((i) => i.status === 'pending'))

  function subscribe(): void {
    if (unsubscribers.length) return
    const bridge = useBridge()
    unsubscribers = [
      bridge.on(chatStreamDelta, onDelta),
      bridge.on(chatStreamCompleted, (p) => onTerminal(p.sessionId, p.messageId, p.status)),
      bridge.on(chatStreamFailed, (p) => onTerminal(p.sessionId, p.messageId, p.status)),
      bridge.on(mcpToolsDeferred, (p) => {
        if (p.sessionId === sessionId.value) toolsDeferred.value = p
      }),
      bridge.on(chatStreamRetrying, (p) => {
        if (p.sessionId === sessionId.value) retrying[p.messageId] = p
      }),
      bridge.on(chatStreamPaused, (p) => {
        onTerminal(p.sessionId, p.messageId, 'awaiting_interaction')
        if (watchedSessionIds.value.includes(p.sessionId)) mergeInteractions(p.interactions)
      }),
      bridge.on(chatMessageCreated, ({ sessionId: sid, message }) => {
        if (sid !== sessionId.value || byId.has(message.id)) return
        addMessages([reactiveCopy({ ...message, stream: null })])
      }),
      bridge.on(chatMessagesSuperseded, ({ sessionId: sid, messageIds }) => {
        if (sid === sessionId.value) removeMessages(messageIds)
      }),
      // Another variant shown, or messages deleted or restored (here or in another window).
      bridge.on(chatBranchChanged, ({ sessionId: sid }) => {
        if (sid === sessionId.value) void reloadLatest(false).catch(() => undefined)
      }),
      bridge.on(chatQueueChanged, ({ sessionId: sid, items }) => {
        if (sid === sessionId.value) queue.value = items
      }),
      bridge.on(sessionsInteractionsChanged, ({ sessionId: sid }) => {
        if (watchedSessionIds.value.includes(sid)) void loadInteractions()
      }),
      // Another window (or the model's settings tool) changed this chat: a burst costs one read.
      bridge.on(sessionsUpdated, ({ sessionIds }) => {
        if (!sessionId.value || !sessionIds.includes(sessionId.value)) return
        clearTimeout(settingsTimer)
        settingsTimer = setTimeout(() => void loadSettings().catch(() => undefined), 150)
      })
    ]
  }

  function removeMessages(ids: string[]): void {
    const gone = new Set(ids)
    for (const id of ids) byId.delete(id)
    messages.value = messages.value.filter((m) => !gone.has(m.id))
  }

  function addMessages(list: ChatMessageView[], atStart = false): void {
    const fresh = list.filter((m) => !byId.has(m.id))
    for (const m of fresh) byId.set(m.id, m)
    messages.value = atStart ? [...fresh, ...messages.value] : [...messages.value, ...fresh]
  }

  /** Opens a session: the newest page of messages, its pending interactions, its queue. */
  async function open(id: string | null, childIds: string[] = []): Promise<void> {
    subscribe()
    const token = ++openToken
    sessionId.value = id
    toolsDeferred.value = null
    byId.clear()
    messages.value = []
    interactions.value = []
    queue.value = []
    settings.value = null
    hasMore.value = false
    watchedSessionIds.value = id ? [id, ...childIds] : []
    if (!id) return
    loading.value = true
    // Settings failing to load leaves the pickers empty; it never keeps the messages from opening.
    void loadSettings().catch((e) => (lastError.value = errorText(e)))
    try {
      const [page] = await Promise.all([
        useBridge().call(chatGetMessages, { sessionId: id, limit: PAGE }),
        loadInteractions()
      ])
      if (token !== openToken) return
      addMessages(page.messages.map(reactiveCopy))
      hasMore.value = page.hasMore
    } catch (e) {
      lastError.value = errorText(e)
    } finally {
      if (token === openToken) loading.value = false
    }
  }

  function watchChildren(childIds: string[]): void {
    if (!sessionId.value) return
    const next = [sessionId.value, ...childIds]
    if (next.join() === watchedSessionIds.value.join()) return
    watchedSessionIds.value = next
    void loadInteractions()
  }

  async function loadOlder(): Promise<void> {
    const id = sessionId.value
    const first = messages.value[0]
    if (!id || !first || !hasMore.value || loading.value) return
    loading.value = true
    try {
      const page = await useBridge().call(chatGetMessages, {
        sessionId: id,
        beforeOrderSeq: first.orderSeq,
        limit: PAGE
      })
      if (id !== sessionId.value) return
      addMessages(page.messages.map(reactiveCopy), true)
      hasMore.value = page.hasMore
    } finally {
      loading.value = false
    }
  }

  /**
   * Re-reads the newest page after a retry, an edit or a change of branch. Pages hold the chosen
   * branch only, so the list is rebuilt from the page (live objects are kept). `keepNewer`:
   * messages newer than the page (created meanwhile) stay; a change of branch drops them.
   */
  async function reloadLatest(keepNewer = true): Promise<void> {
    const id = sessionId.value
    if (!id) return
    const page = await useBridge().call(chatGetMessages, { sessionId: id, limit: PAGE })
    if (id !== sessionId.value) return
    const next: ChatMessageView[] = []
    for (const fresh of page.messages) {
      const known = byId.get(fresh.id)
      // A live object may be ahead of the snapshot (deltas arrived meanwhile): keep it then.
      if (known && (known.stream?.seq ?? 0) <= (fresh.stream?.seq ?? 0)) mergeSnapshot(known, fresh)
      next.push(known ?? reactiveCopy(fresh))
    }
    // Messages created after the page was read (events) stay.
    const newest = next[next.length - 1]?.orderSeq ?? 0
    if (keepNewer) for (const m of messages.value) if (m.orderSeq > newest && !next.includes(m)) next.push(m)
    byId.clear()
    for (const m of next) byId.set(m.id, m)
    messages.value = next
    hasMore.value = page.hasMore
  }

  async function loadSettings(): Promise<void> {
    const id = sessionId.value
    if (!id) return
    const result = await useBridge().call(sessionsGetSettings, { sessionId: id })
    if (id === sessionId.value) settings.value = result.settings
  }

  /** Changes the open chat's settings; they apply from its next provider request. Throws the route's error. */
  async function updateSettings(patch: SessionSettingsPatch): Promise<void> {
    const id = sessionId.value
    if (!id) return
    const result = await useBridge().call(sessionsUpdateSettings, plain({ sessionId: id, patch }))
    if (id === sessionId.value) settings.value = result.settings
  }

  async function loadInteractions(): Promise<void> {
    const ids = watchedSessionIds.value
    const lists = await Promise.all(
      ids.map((sid) =>
        useBridge()
          .call(sessionsListInteractions, { sessionId: sid, pendingOnly: true })
          .catch(() => ({ interactions: [] }))
      )
    )
    if (ids !== watchedSessionIds.value) return
    interactions.value = lists.flatMap((l) => l.interactions).sort((a, b) => a.createdAt - b.createdAt)
  }

  function mergeInteractions(list: PendingInteraction[]): void {
    const known = new Set(interactions.value.map((i) => i.id))
    interactions.value = [...interactions.value, ...list.filter((i) => !known.has(i.id))]
  }

  function onDelta(payload: DeltaPayload): void {
    delete retrying[payload.messageId] // the retry got through
    if (payload.sessionId !== sessionId.value) return
    const buffered = refetching.get(payload.messageId)
    if (buffered) return void buffered.push(payload)
    const message = byId.get(payload.messageId)
    if (!message) return void refetch(payload.messageId, [payload])
    const verdict = judgeDelta(message.stream, payload.runId, payload.seq)
    if (verdict === 'stale') return
    if (verdict === 'gap') return void refetch(payload.messageId, [payload])
    applyOps(message, payload.ops)
    message.stream = { runId: payload.runId, seq: payload.seq }
    if (message.status === 'pending' || message.status === 'awaiting_interaction')
      message.status = 'streaming'
  }

  /** After a missed delta: read the message with its cursor, then replay what arrived meanwhile. */
  async function refetch(messageId: string, pending: DeltaPayload[]): Promise<void> {
    refetching.set(messageId, pending)
    try {
      const { message: fresh } = await useBridge().call(chatGetMessage, { messageId })
      const known = byId.get(messageId)
      if (known) mergeSnapshot(known, fresh)
      else if (fresh.sessionId === sessionId.value) {
        addMessages([reactiveCopy(fresh)])
        messages.value = [...messages.value].sort((a, b) => a.orderSeq - b.orderSeq)
      }
    } catch (e) {
      lastError.value = errorText(e)
    } finally {
      const queued = refetching.get(messageId) ?? []
      refetching.delete(messageId)
      const target = byId.get(messageId)
      for (const delta of queued) {
        if (target && judgeDelta(target.stream, delta.runId, delta.seq) === 'apply') {
          applyOps(target, delta.ops)
          target.stream = { runId: delta.runId, seq: delta.seq }
        }
      }
    }
  }

  function onTerminal(sid: string, messageId: string, status: ChatMessageView['status']): void {
    delete retrying[messageId]
    if (sid !== sessionId.value) return
    const message = byId.get(messageId)
    if (message) message.status = status
    // The final snapshot carries usage and anything a lost delta would have missed.
    void useBridge()
      .call(chatGetMessage, { messageId })
      .then(({ message: fresh }) => {
        const known = byId.get(messageId)
        if (known) mergeSnapshot(known, fresh)
      })
      .catch(() => undefined)
  }

  /** Sends into the open chat, or starts a new one; returns the session id (the caller routes to a new one). */
  async function send(
    text: string,
    options: { newSession?: NewSessionOptions; attachments?: AttachmentInput[] } = {}
  ): Promise<string> {
    subscribe()
    lastError.value = null
    const result = await useBridge().call(chatSendMessage, {
      text,
      ...(options.attachments?.length ? { attachments: options.attachments } : {}),
      ...(sessionId.value ? { sessionId: sessionId.value } : { newSession: options.newSession ?? {} })
    })
    // A new chat is opened by its route, so the address names it before anything (a permission
    // dialog) can show: a reload then lands on the chat, not on an empty new-chat page.
    if (result.sessionId === sessionId.value)
      await ensureMessages([result.userMessageId, result.assistantMessageId])
    return result.sessionId
  }

  /** Created messages usually arrive as events; if one was missed, read it. */
  async function ensureMessages(ids: Array<string | null>): Promise<void> {
    for (const id of ids) if (id && !byId.has(id) && !refetching.has(id)) await refetch(id, [])
  }

  async function stop(): Promise<void> {
    if (sessionId.value) await useBridge().call(chatStop, { sessionId: sessionId.value })
  }

  async function retry(messageId: string): Promise<void> {
    if (!sessionId.value) return
    await useBridge().call(chatRetry, { sessionId: sessionId.value, messageId })
    await reloadLatest()
  }

  async function editAndResend(messageId: string, text: string): Promise<void> {
    if (!sessionId.value) return
    await useBridge().call(chatEditAndResend, { sessionId: sessionId.value, messageId, text })
    await reloadLatest()
  }

  /** Shows another variant of a message ("‹ 2/3 ›"); the choice is kept in the chat. */
  async function selectVariant(messageId: string): Promise<void> {
    if (!sessionId.value) return
    await useBridge().call(chatSelectVariant, { sessionId: sessionId.value, messageId })
    await reloadLatest(false)
  }

  /** Deletes a prompt with its answers, or one answer; `undoDelete` takes it back. */
  async function deleteMessage(messageId: string): Promise<void> {
    const sid = sessionId.value
    if (!sid) return
    const { messageIds } = await useBridge().call(chatDeleteMessage, { sessionId: sid, messageId })
    if (messageIds.length) lastDeleted.value = { sessionId: sid, messageIds }
    await reloadLatest(false)
  }

  async function undoDelete(): Promise<void> {
    const deleted = lastDeleted.value
    lastDeleted.value = null
    if (!deleted) return
    await useBridge().call(chatRestoreMessages, {
      sessionId: deleted.sessionId,
      messageIds: [...deleted.messageIds]
    })
    if (deleted.sessionId === sessionId.value) await reloadLatest(false)
  }

  async function fork(messageId: string): Promise<SessionRecord | null> {
    if (!sessionId.value) return null
    const { session } = await useBridge().call(sessionsFork, { sessionId: sessionId.value, messageId })
    return session
  }

  async function respond(interaction: PendingInteraction, response: InteractionResponse): Promise<void> {
    await useBridge().call(chatRespondToolInteraction, {
      sessionId: interaction.sessionId,
      messageId: interaction.messageId,
      interactionId: interaction.id,
      response
    })
    interactions.value = interactions.value.filter((i) => i.id !== interaction.id)
  }

  async function cancelQueued(inputId: string): Promise<void> {
    if (sessionId.value) await useBridge().call(chatCancelQueued, { sessionId: sessionId.value, inputId })
  }

  /** Where `query` occurs in the whole chat (the window holds only some of its pages). */
  function findText(sid: string, query: string) {
    return useBridge().call(chatFindText, { sessionId: sid, query })
  }

  function dispose(): void {
    unsubscribers.forEach((off) => off())
    unsubscribers = []
    clearTimeout(settingsTimer)
  }

  return {
    sessionId,
    retrying,
    toolsDeferred,
    messages,
    visibleMessages,
    activeAssistant,
    hasMore,
    loading,
    interactions,
    pendingInteractions,
    queue,
    lastError,
    settings,
    open,
    loadSettings,
    updateSettings,
    watchChildren,
    loadOlder,
    reloadLatest,
    send,
    stop,
    retry,
    editAndResend,
    selectVariant,
    deleteMessage,
    undoDelete,
    lastDeleted,
    fork,
    respond,
    cancelQueued,
    findText,
    dispose
  }
})

export interface NewSessionOptions {
  providerId?: string
  modelId?: string
  workspaceDir?: string | null
  permissionMode?: PermissionMode
  assistantId?: string
  generationSettings?: GenerationSettings
}

/** Each message is reactive on its own, so a delta re-renders only what reads the changed block. */
function reactiveCopy(message: ChatMessageView): ChatMessageView {
  return reactive(message) as ChatMessageView
}
