import { defineStore } from 'pinia'
import { computed, ref, watch } from 'vue'
import {
  attachmentsBeginUpload,
  attachmentsCancelUpload,
  attachmentsFinishUpload,
  attachmentsFromMcpResource,
  attachmentsPickFiles,
  attachmentsUploadChunk
} from '@shared/contracts/routes/attachments.routes'
import { draftsGet, draftsSave, type ComposerDraft } from '@shared/contracts/routes/drafts.routes'
import { libraryExpandMcpPrompt } from '@shared/contracts/routes/library.routes'
import { mcpListPrompts, mcpListResources } from '@shared/contracts/routes/mcp.routes'
import { ATTACHMENT_LIMITS, type AttachmentInput, type AttachmentView } from '@shared/types/attachments'
import type { McpPromptView, McpResourceTemplateView, McpResourceView } from '@shared/types/mcp'
import { BridgeError, useBridge } from '@renderer/api/bridge'
import { errorText } from '@renderer/lib/errorText'
import { toBase64 } from './lib/base64'
import { createDraftMirror, type DraftWrite, type UnconfirmedDraft } from './lib/draftMirror'

/** One file on the message being written: uploading, ready to send, or refused (with why). */
export interface ComposerAttachment {
  key: string
  name: string
  size: number
  isImage: boolean
  status: 'uploading' | 'ready' | 'error'
  /** 0..1 while uploading. */
  progress: number
  view: AttachmentView | null
  error: string | null
  /** A refusal decided here, worded by the chip in the user's language. */
  refusal: { key: string; values: Record<string, string | number> } | null
}

let nextKey = 1

/** What was typed before the stored draft was read, over it: as the composer shows the two once it arrives. */
function joinStored(typed: DraftWrite, stored: ComposerDraft | null): DraftWrite {
  const files = [...typed.attachments]
  for (const view of stored?.attachments ?? [])
    if (!files.some((file) => file.sha256 === view.sha256))
      files.push({ sha256: view.sha256, name: view.name })
  return {
    ...typed,
    text: typed.text || (stored?.text ?? ''),
    attachments: files.slice(0, ATTACHMENT_LIMITS.maxFiles),
    assistantId: typed.assistantId ?? stored?.assistantId ?? null
  }
}

/** One chat's draft while another chat is open (uploads in flight carry on in it). */
interface ParkedDraft {
  text: string
  attachments: ComposerAttachment[]
  assistantId: string | null
}

/** How long typing settles before the draft is written to the back end. */
const DRAFT_SAVE_DELAY_MS = 400

/**
 * The message being written: its text and attachments (uploaded in chunks as soon as they are
 * added, so a send only names them), and what the `/` and `@` menus offer from MCP servers.
 * Each chat has its own draft, and so has the new-chat page: switching chats swaps them, and
 * the back end keeps them (`drafts.*`) across reloads and restarts.
 */
export const useComposerStore = defineStore('composer', () => {
  const text = ref('')
  const attachments = ref<ComposerAttachment[]>([])
  /** The new-chat page's chosen assistant (part of its draft). */
  const assistantId = ref<string | null>(null)
  /** Whose draft is in the composer: a chat id, null for the new-chat page, undefined before the first. */
  const draftScope = ref<string | null | undefined>(undefined)
  const parked = new Map<string | null, ParkedDraft>()
  /**
   * Scopes whose stored draft has been read: only those are sent (an empty composer mid-load is no
   * draft); text typed before the read is kept in the mirror until the read (see `flushDraft`).
   */
  const loadedScopes = new Set<string | null>()
  /**
   * Scopes whose stored draft could not be read: an empty composer there is not written, or it
   * would replace the draft the back end still holds; what the user types is.
   */
  const unreadScopes = new Set<string | null>()
  const saveChains = new Map<string | null, Promise<unknown>>()
  /** Writes the back end has not confirmed: the next page sends them again (see `DraftMirror`). */
  const mirror = createDraftMirror()
  let replayedOthers = false
  let saveTimer: ReturnType<typeof setTimeout> | undefined
  /** Scopes whose text is being sent: it is not written as a draft (it would outlive the send). */
  const sendingScopes = new Set<string | null>()
  let loadToken = 0
  const mcpPrompts = ref<McpPromptView[]>([])
  const mcpResources = ref<McpResourceView[]>([])
  const mcpTemplates = ref<McpResourceTemplateView[]>([])

  const uploading = computed(() => attachments.value.some((a) => a.status === 'uploading'))
  const ready = computed(() => attachments.value.filter((a) => a.status === 'ready' && a.view))
  const hasImages = computed(() => ready.value.some((a) => a.view?.kind === 'image'))

  /** Still on some draft (the open one or a parked one): not removed by the user. */
  function isKept(item: ComposerAttachment): boolean {
    if (attachments.value.includes(item)) return true
    for (const draft of parked.values()) if (draft.attachments.includes(item)) return true
    return false
  }

  function entry(partial: Partial<ComposerAttachment> & { name: string; size: number }): ComposerAttachment {
    const item: ComposerAttachment = {
      key: `a${nextKey++}`,
      isImage: false,
      status: 'uploading',
      progress: 0,
      view: null,
      error: null,
      refusal: null,
      ...partial
    }
    attachments.value = [...attachments.value, item]
    // The reactive copy: changes to it reach the chips.
    return attachments.value[attachments.value.length - 1]
  }

  /** Uploads files the user pasted, dropped or chose; each shows as a chip at once. */
  async function addFiles(files: File[]): Promise<void> {
    await Promise.all(files.map((file) => addFile(file)))
  }

  async function addFile(file: File): Promise<void> {
    const isImage = file.type.startsWith('image/')
    const item = entry({ name: file.name || 'pasted', size: file.size, isImage })
    const owner = draftScope.value ?? null
    const refusal = localRefusal(file, isImage)
    if (refusal) {
      item.status = 'error'
      item.refusal = refusal
      return
    }
    try {
      const bridge = useBridge()
      const { uploadId } = await bridge.call(attachmentsBeginUpload, {
        name: item.name,
        mimeType: file.type,
        size: file.size
      })
      for (let index = 0, offset = 0; offset < file.size; index++, offset += ATTACHMENT_LIMITS.chunkBytes) {
        if (!isKept(item)) {
          await bridge.call(attachmentsCancelUpload, { uploadId }).catch(() => undefined)
          return // removed while uploading
        }
        const bytes = new Uint8Array(
          await file.slice(offset, offset + ATTACHMENT_LIMITS.chunkBytes).arrayBuffer()
        )
        await bridge.call(attachmentsUploadChunk, { uploadId, index, data: toBase64(bytes) })
        item.progress = Math.min(1, (offset + bytes.length) / file.size)
      }
      const { attachment } = await bridge.call(attachmentsFinishUpload, { uploadId })
      succeed(item, attachment)
      // Finished while another chat is open: its stored draft gains the file now.
      if (owner !== draftScope.value && parked.has(owner)) persistParked(owner)
    } catch (error) {
      fail(item, errorText(error))
    }
  }

  function localRefusal(file: File, isImage: boolean): ComposerAttachment['refusal'] {
    const name = file.name || 'pasted'
    if (attachments.value.filter((a) => a.status !== 'error').length > ATTACHMENT_LIMITS.maxFiles)
      return { key: 'composer.refusals.tooMany', values: { max: ATTACHMENT_LIMITS.maxFiles } }
    const limit = isImage ? ATTACHMENT_LIMITS.maxImageBytes : ATTACHMENT_LIMITS.maxFileBytes
    if (file.size > limit)
      return {
        key: isImage ? 'composer.refusals.imageTooLarge' : 'composer.refusals.tooLarge',
        values: { name, size: (file.size / 1024 / 1024).toFixed(1), limit: limit / 1024 / 1024 }
      }
    if (file.size === 0) return { key: 'composer.refusals.empty', values: { name } }
    return null
  }

  function succeed(item: ComposerAttachment, view: AttachmentView): void {
    item.view = view
    item.isImage = view.kind === 'image'
    item.progress = 1
    item.status = 'ready'
  }

  function fail(item: ComposerAttachment, message: string): void {
    item.status = 'error'
    item.error = message
  }

  /** Attachments main stored already (the desktop file dialog, MCP resources and prompts). */
  function addStored(views: AttachmentView[]): void {
    for (const view of views) succeed(entry({ name: view.name, size: view.size }), view)
  }

  /** The desktop's native dialog; false where there is none (the page's file input is used then). */
  async function pickFiles(title: string): Promise<boolean> {
    const result = await useBridge().call(attachmentsPickFiles, { title })
    if (!result.supported) return false
    addStored(result.attachments)
    return true
  }

  async function attachResource(serverId: string, uri: string, name?: string): Promise<void> {
    const item = entry({ name: name ?? uri, size: 0 })
    try {
      const result = await useBridge().call(attachmentsFromMcpResource, {
        serverId,
        uri,
        ...(name ? { name } : {})
      })
      remove(item.key)
      addStored(result.attachments)
    } catch (error) {
      fail(item, errorText(error))
    }
  }

  /** An MCP prompt as a `/` command: its text for the composer; its other parts become attachments. */
  async function expandMcpPrompt(
    serverId: string,
    name: string,
    args: Record<string, string>
  ): Promise<string> {
    const result = await useBridge().call(libraryExpandMcpPrompt, { serverId, name, args })
    addStored(result.attachments)
    return result.text
  }

  async function loadMcpCatalog(): Promise<void> {
    const bridge = useBridge()
    const [prompts, resources] = await Promise.all([
      bridge.call(mcpListPrompts, {}).catch(() => ({ prompts: [] })),
      bridge.call(mcpListResources, {}).catch(() => ({ resources: [], templates: [] }))
    ])
    mcpPrompts.value = prompts.prompts
    mcpResources.value = resources.resources
    mcpTemplates.value = resources.templates
  }

  function remove(key: string): void {
    attachments.value = attachments.value.filter((a) => a.key !== key)
  }

  function clear(): void {
    attachments.value = []
  }

  function snapshot(draft: ParkedDraft): {
    text: string
    attachments: AttachmentInput[]
    assistantId: string | null
  } {
    const files = draft.attachments.filter((a) => a.status === 'ready' && a.view)
    return {
      text: draft.text,
      attachments: files.map((a) => ({ sha256: a.view!.sha256, name: a.view!.name })),
      assistantId: draft.assistantId
    }
  }

  /** Writes one scope's draft; writes of a scope go out in order, so the last one wins. */
  function persist(scope: string | null, draft: ParkedDraft): Promise<unknown> {
    return send({ sessionId: scope, ...snapshot(draft), typedAt: Date.now() })
  }

  function send(write: DraftWrite): Promise<unknown> {
    // Kept in the window first: a write lost with the page (a reload) is sent by the next one.
    mirror.remember(write)
    const previous = saveChains.get(write.sessionId) ?? Promise.resolve()
    const next = previous
      .then(() => useBridge().call(draftsSave, write))
      .then(
        () => mirror.settle(write.sessionId, write.typedAt),
        // With the connection down the draft stays in the window, and in the mirror for the next page.
        (error: unknown) => settleIfGone(error, write)
      )
    saveChains.set(write.sessionId, next)
    return next
  }

  /** A chat deleted meanwhile has no draft to keep. */
  function settleIfGone(error: unknown, write: DraftWrite): void {
    if (error instanceof BridgeError && error.code === 'session_not_found')
      mirror.settle(write.sessionId, write.typedAt)
  }

  /** Sends a write an earlier page could not; one typed before its read joins the stored draft first. */
  async function replay({ write, beforeRead }: UnconfirmedDraft): Promise<unknown> {
    if (!beforeRead) return send(write)
    try {
      const { draft: stored } = await useBridge().call(draftsGet, { sessionId: write.sessionId })
      return await send(joinStored(write, stored))
    } catch (error) {
      settleIfGone(error, write)
    }
  }

  function persistParked(scope: string | null): void {
    const draft = parked.get(scope)
    if (draft) void persist(scope, draft)
  }

  function current(): ParkedDraft {
    return { text: text.value, attachments: attachments.value, assistantId: assistantId.value }
  }

  /** Writes the open draft now (instead of after the typing pause). */
  function flushDraft(): Promise<unknown> {
    clearTimeout(saveTimer)
    saveTimer = undefined
    const scope = draftScope.value
    if (scope === undefined || sendingScopes.has(scope))
      return saveChains.get(scope ?? null) ?? Promise.resolve()
    const draft = current()
    if (!loadedScopes.has(scope)) {
      // Typed before the stored draft arrived: sent now it would drop the stored files, so it is
      // kept for the page that reads the stored draft next (this one or, after a reload, the next).
      const typed = { sessionId: scope, ...snapshot(draft), typedAt: Date.now() }
      if (typed.text || typed.attachments.length > 0) mirror.remember(typed, true)
      return saveChains.get(scope) ?? Promise.resolve()
    }
    if (unreadScopes.has(scope)) {
      if (!draft.text && draft.attachments.length === 0) return saveChains.get(scope) ?? Promise.resolve()
      unreadScopes.delete(scope)
    }
    return persist(scope, draft)
  }

  function scheduleSave(): void {
    const scope = draftScope.value
    if (scope === undefined || !loadedScopes.has(scope) || sendingScopes.has(scope)) return
    clearTimeout(saveTimer)
    saveTimer = setTimeout(() => void flushDraft(), DRAFT_SAVE_DELAY_MS)
  }

  watch([text, assistantId, () => ready.value.map((a) => a.view!.sha256).join()], () => scheduleSave())

  /**
   * Puts the open draft aside and brings up the chat's (`sessionId`, or null for the new-chat
   * page). The swap itself is synchronous, so a key pressed right after never acts on the other
   * chat's text; the stored draft is read when this window has none for the chat.
   */
  async function switchDraft(sessionId: string | null): Promise<void> {
    const before = draftScope.value
    if (before === sessionId) return
    if (before !== undefined) {
      void flushDraft()
      parked.set(before, current())
    }
    draftScope.value = sessionId
    const kept = parked.get(sessionId)
    parked.delete(sessionId)
    text.value = kept?.text ?? ''
    attachments.value = kept?.attachments ?? []
    assistantId.value = kept?.assistantId ?? null
    // A draft parked before its stored one was read (the window passed through the chat while it
    // loaded) is not the whole draft: the stored one is still read, and what was typed stays.
    if (kept && loadedScopes.has(sessionId)) return
    const token = ++loadToken
    // Unreadable: start empty, and what is typed now is kept (see `unreadScopes`).
    const stored = await readDraft(sessionId).catch(() => undefined)
    if (token !== loadToken || draftScope.value !== sessionId) return
    loadedScopes.add(sessionId)
    if (stored === undefined) {
      unreadScopes.add(sessionId)
      // The back end is out of reach: the text this window wrote last is still the newest known.
      const unsent = mirror.unconfirmed(sessionId)
      if (unsent && !text.value) text.value = unsent.write.text
    } else unreadScopes.delete(sessionId)
    if (stored) {
      // What the user typed while it loaded stays in front of nothing: it is simply kept.
      if (!text.value) text.value = stored.text
      const known = new Set(ready.value.map((a) => a.view!.sha256))
      addStored(stored.attachments.filter((view) => !known.has(view.sha256)))
      assistantId.value ??= stored.assistantId
    }
    scheduleSave()
  }

  /** The stored draft, after this window's unconfirmed writes have been sent again. */
  async function readDraft(sessionId: string | null) {
    if (!replayedOthers) {
      replayedOthers = true
      for (const kept of mirror.allUnconfirmed()) if (kept.write.sessionId !== sessionId) void replay(kept)
    }
    const unconfirmed = mirror.unconfirmed(sessionId)
    if (unconfirmed) await replay(unconfirmed)
    return (await useBridge().call(draftsGet, { sessionId })).draft
  }

  /**
   * A send of this scope's text starts: until it ends, that text is not written as the draft. (The
   * window moves to the new chat while the send is under way, and writing the page's draft on the
   * way out stored the very text being sent, which came back on the next visit.)
   */
  function beginSend(sessionId: string | null): void {
    clearTimeout(saveTimer)
    saveTimer = undefined
    sendingScopes.add(sessionId)
  }

  /** The send ended: sent (the draft is cleared) or not (the text stays a draft, written again). */
  function endSend(sessionId: string | null, sent: boolean): void {
    sendingScopes.delete(sessionId)
    if (sent) clearDraft(sessionId)
    else if (draftScope.value === sessionId) scheduleSave()
    else persistParked(sessionId)
  }

  /** After a send: that chat's draft is gone (the composer may show another chat by now). */
  function clearDraft(sessionId: string | null): void {
    unreadScopes.delete(sessionId)
    if (draftScope.value === sessionId) {
      clearTimeout(saveTimer)
      text.value = ''
      attachments.value = []
      loadedScopes.add(sessionId)
      void persist(sessionId, current())
      return
    }
    const draft = parked.get(sessionId)
    parked.delete(sessionId)
    void persist(sessionId, { text: '', attachments: [], assistantId: draft?.assistantId ?? null })
  }

  function inputs(): AttachmentInput[] {
    return ready.value.map((a) => ({ sha256: a.view!.sha256, name: a.view!.name }))
  }

  return {
    text,
    assistantId,
    draftScope,
    attachments,
    uploading,
    ready,
    hasImages,
    mcpPrompts,
    mcpResources,
    mcpTemplates,
    addFiles,
    addStored,
    pickFiles,
    attachResource,
    expandMcpPrompt,
    loadMcpCatalog,
    remove,
    clear,
    switchDraft,
    flushDraft,
    beginSend,
    endSend,
    clearDraft,
    inputs
  }
})
