import type { BlockKind, BlockOf, ChatErrorCode, DistributiveOmit, MessageBlock } from '@shared/types/blocks'
import type {
  LLMCoreStreamEvent,
  LLMUsage,
  ProviderErrorCategory,
  ProviderOptions,
  StopReason
} from '@shared/types/llm'
import { numberedSources, type FoundPage } from '@shared/webSources'

/** At most this many of a round's provider search sources are listed. */
const MAX_PROVIDER_SOURCES = 20

/** Where block changes go: the delta streamer batches them for the renderer and the projection. */
export interface BlockChangeSink {
  append(blockId: string, field: 'text' | 'params', text: string): void
  upsert(blockId: string): void
}

export interface CompletedToolCall {
  id: string
  name: string
  arguments: string
  blockId: string
}

/** What a provider failure adds to an error block: its category and HTTP status. */
export interface ProviderFailureDetail {
  category?: ProviderErrorCategory
  status?: number
}

/** A block to add: id optional (one is made), times filled in. */
export type NewBlock = DistributiveOmit<MessageBlock, 'id' | 'createdAt' | 'updatedAt'> & { id?: string }

/** What may change on a block of kind `K`: anything but its identity and kind. */
export type BlockPatch<K extends BlockKind> = Partial<Omit<BlockOf<K>, 'id' | 'kind' | 'createdAt'>>

/**
 * Folds provider stream events into the message's blocks. Text grows in place and is reported
 * as `append` (constant cost per token); structural changes are reported as `upsert`.
 */
export class BlockAccumulator {
  readonly blocks: MessageBlock[]
  private readonly byId = new Map<string, MessageBlock>()
  private openNarrative: BlockOf<'content' | 'reasoning_content'> | null = null
  private readonly openCalls = new Map<string, BlockOf<'tool_call'>>()
  private roundCalls: CompletedToolCall[] = []
  /** Pages the provider's own web search reported this round, listed under the round's text. */
  private roundSources: FoundPage[] = []
  private roundContent: BlockOf<'content'> | null = null
  stopReason: StopReason | null = null
  usage: LLMUsage | null = null
  error: { code: string; message: string; category?: ProviderErrorCategory; status?: number } | null = null
  /** Whether this round produced anything the user can see (text, reasoning, calls, images). */
  roundHadOutput = false
  /** Tool name -> its server's display name, so each call's row can say where the tool comes from. */
  toolServerNames: ReadonlyMap<string, string> = new Map()

  constructor(
    initial: readonly MessageBlock[],
    private readonly sink: BlockChangeSink,
    private readonly newId: () => string,
    private readonly now: () => number = Date.now
  ) {
    this.blocks = initial.map((b) => structuredClone(b))
    for (const block of this.blocks) this.byId.set(block.id, block)
  }

  get(blockId: string): MessageBlock | undefined {
    return this.byId.get(blockId)
  }

  /** The block `blockId` if it is of `kind`. */
  getOf<K extends BlockKind>(blockId: string, kind: K): BlockOf<K> | undefined {
    const block = this.byId.get(blockId)
    return block && isKind(block, kind) ? block : undefined
  }

  /** Starts a provider round: per-round state is reset (the reference kept a stale stop reason). */
  startRound(): void {
    this.closeNarrative()
    this.roundCalls = []
    this.roundSources = []
    this.roundContent = null
    this.openCalls.clear()
    this.stopReason = null
    this.error = null
    this.roundHadOutput = false
  }

  completedCalls(): CompletedToolCall[] {
    return this.roundCalls
  }

  apply(event: LLMCoreStreamEvent): void {
    switch (event.type) {
      case 'text':
        if (event.content) this.narrative('content', event.content, event.provider_options)
        return
      case 'reasoning':
        if (event.reasoning_content)
          this.narrative('reasoning_content', event.reasoning_content, event.provider_options)
        return
      case 'tool_call_start':
        this.startCall(event.tool_call_id, event.tool_call_name)
        return
      case 'tool_call_chunk': {
        const block = this.openCalls.get(event.tool_call_id)
        if (!block) return // unknown ids are ignored
        block.toolCall.params += event.tool_call_arguments_chunk
        this.sink.append(block.id, 'params', event.tool_call_arguments_chunk)
        return
      }
      case 'tool_call_end':
        this.endCall(event.tool_call_id, event.tool_call_arguments_complete, event.provider_options)
        return
      case 'image_data':
        this.closeNarrative()
        this.roundHadOutput = true
        this.add({
          kind: 'image',
          status: 'success',
          text: '',
          data: { mimeType: event.image_data.mimeType, data: event.image_data.data }
        })
        return
      case 'source':
        this.roundSources.push({ url: event.url, title: event.title, snippet: '' })
        return
      case 'usage':
        this.usage = event.usage
        return
      case 'error':
        this.error = {
          code: event.code,
          message: event.error_message,
          category: event.category,
          status: event.status
        }
        return
      case 'stop':
        this.stopReason = event.stop_reason
        this.attachRoundSources()
        return
    }
  }

  /**
   * The provider's search sources become the sources block of the round's text (the last text
   * block it wrote, or an empty one when it wrote none): numbered, http(s) only, no duplicates.
   */
  private attachRoundSources(): void {
    const sources = numberedSources(this.roundSources, MAX_PROVIDER_SOURCES)
    this.roundSources = []
    if (sources.length === 0) return
    const target = this.roundContent
    if (target) {
      this.update(target.id, 'content', { data: { ...target.data, sources } })
      return
    }
    this.closeNarrative()
    this.add({ kind: 'content', status: 'success', text: '', data: { sources } })
  }

  /** Closes the growing text block so the next text starts a new one (after tool calls, etc.). */
  closeNarrative(): void {
    const open = this.openNarrative
    if (!open) return
    this.openNarrative = null
    this.setStatus(open.id, 'success')
  }

  add(input: NewBlock): MessageBlock {
    const at = this.now()
    return this.insert({ ...input, id: input.id ?? this.newId(), createdAt: at, updatedAt: at })
  }

  /** Changes the block `blockId` if it is of `kind`; anything else is left alone. */
  update<K extends BlockKind>(blockId: string, kind: K, patch: BlockPatch<K>): void {
    const block = this.getOf(blockId, kind)
    if (!block) return
    Object.assign(block, patch, { updatedAt: this.now() })
    this.sink.upsert(blockId)
  }

  setStatus(blockId: string, status: MessageBlock['status']): void {
    const block = this.byId.get(blockId)
    if (!block) return
    block.status = status
    block.updatedAt = this.now()
    this.sink.upsert(blockId)
  }

  addError(code: ChatErrorCode, message: string, detail: ProviderFailureDetail = {}): MessageBlock {
    this.closeNarrative()
    return this.add({ kind: 'error', status: 'error', text: message, data: { code, ...detail } })
  }

  /**
   * Terminal cleanup: growing blocks end, calls that never ran (or were cut off) become
   * `cancelled` — never a silent `success` with an empty result.
   */
  settleOpenBlocks(): void {
    this.closeNarrative()
    for (const block of this.blocks) {
      if (block.kind === 'tool_call' && (block.status === 'pending' || block.status === 'loading'))
        this.setStatus(block.id, 'cancelled')
      else if (block.kind === 'action' && block.status === 'pending') this.setStatus(block.id, 'cancelled')
    }
  }

  private narrative(
    kind: 'content' | 'reasoning_content',
    text: string,
    providerOptions?: ProviderOptions
  ): void {
    this.roundHadOutput = true
    const open = this.openNarrative
    if (open && open.kind === kind) {
      open.text += text
      if (providerOptions) this.update(open.id, kind, { data: { ...open.data, providerOptions } })
      this.sink.append(open.id, 'text', text)
      return
    }
    this.closeNarrative()
    const at = this.now()
    this.openNarrative = this.insert<BlockOf<'content' | 'reasoning_content'>>({
      id: this.newId(),
      kind,
      status: 'pending',
      text,
      ...(providerOptions ? { data: { providerOptions } } : {}),
      createdAt: at,
      updatedAt: at
    })
    if (this.openNarrative.kind === 'content') this.roundContent = this.openNarrative
  }

  private insert<B extends MessageBlock>(block: B): B {
    this.blocks.push(block)
    this.byId.set(block.id, block)
    this.sink.upsert(block.id)
    return block
  }

  private startCall(id: string, name: string): void {
    this.closeNarrative()
    this.roundHadOutput = true
    const serverName = this.toolServerNames.get(name)
    const at = this.now()
    const block = this.insert<BlockOf<'tool_call'>>({
      id: this.newId(),
      kind: 'tool_call',
      status: 'pending',
      text: '',
      toolCall: { id, name, params: '', ...(serverName ? { serverName } : {}) },
      createdAt: at,
      updatedAt: at
    })
    this.openCalls.set(id, block)
  }

  private endCall(id: string, args: string, providerOptions?: ProviderOptions): void {
    let block = this.openCalls.get(id)
    if (!block) {
      this.startCall(id, 'unknown')
      block = this.openCalls.get(id)!
    }
    this.openCalls.delete(id)
    const toolCall = { ...block.toolCall, params: args || block.toolCall.params || '{}' }
    this.update(block.id, 'tool_call', {
      toolCall,
      ...(providerOptions ? { data: { ...block.data, providerOptions } } : {})
    })
    this.roundCalls.push({ id, name: toolCall.name, arguments: toolCall.params, blockId: block.id })
  }
}

function isKind<K extends BlockKind>(block: MessageBlock, kind: K): block is BlockOf<K> {
  return block.kind === kind
}
