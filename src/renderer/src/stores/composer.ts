import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import {
  attachmentsBeginUpload,
  attachmentsCancelUpload,
  attachmentsFinishUpload,
  attachmentsFromMcpResource,
  attachmentsPickFiles,
  attachmentsUploadChunk
} from '@shared/contracts/routes/attachments.routes'
import { libraryExpandMcpPrompt } from '@shared/contracts/routes/library.routes'
import { mcpListPrompts, mcpListResources } from '@shared/contracts/routes/mcp.routes'
import { ATTACHMENT_LIMITS, type AttachmentInput, type AttachmentView } from '@shared/types/attachments'
import type { McpPromptView, McpResourceTemplateView, McpResourceView } from '@shared/types/mcp'
import { useBridge } from '@renderer/api/bridge'
import { errorText } from '@renderer/lib/errorText'
import { toBase64 } from './lib/base64'

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

/**
 * The message being written: its attachments (uploaded in chunks as soon as they are added, so
 * a send only names them), and what the `/` and `@` menus offer from MCP servers.
 */
export const useComposerStore = defineStore('composer', () => {
  const attachments = ref<ComposerAttachment[]>([])
  const mcpPrompts = ref<McpPromptView[]>([])
  const mcpResources = ref<McpResourceView[]>([])
  const mcpTemplates = ref<McpResourceTemplateView[]>([])

  const uploading = computed(() => attachments.value.some((a) => a.status === 'uploading'))
  const ready = computed(() => attachments.value.filter((a) => a.status === 'ready' && a.view))
  const hasImages = computed(() => ready.value.some((a) => a.view?.kind === 'image'))

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
        if (!attachments.value.includes(item)) {
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

  function inputs(): AttachmentInput[] {
    return ready.value.map((a) => ({ sha256: a.view!.sha256, name: a.view!.name }))
  }

  return {
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
    inputs
  }
})
