import { describe, expect, it } from 'vitest'
import { reactive } from 'vue'
import type { ChatMessageView, MessageBlock } from '@shared/types/chat'
import { mergeSnapshot } from '@renderer/stores/lib/mergeSnapshot'

const longText = 'A long reply. '.repeat(40_000)

function message(status: ChatMessageView['status'], blocks: MessageBlock[]): ChatMessageView {
  return {
    id: 'm',
    sessionId: 's',
    orderSeq: 2,
    role: 'assistant',
    status,
    content: null,
    blocks,
    metadata: {},
    tapeEntryId: null,
    createdAt: 1,
    updatedAt: 1,
    stream: null
  }
}

const content = (text: string): MessageBlock => ({
  id: 't',
  kind: 'content',
  status: 'success',
  text,
  createdAt: 1,
  updatedAt: 1
})
const reasoning: MessageBlock = {
  id: 'r',
  kind: 'reasoning_content',
  status: 'success',
  text: 'thought',
  createdAt: 1,
  updatedAt: 1
}

describe("a message brought up to the back end's snapshot", () => {
  it('keeps the block objects the snapshot did not change, so their views do not render again', () => {
    const live = reactive(message('streaming', [reasoning, content(longText)])) as ChatMessageView
    const [liveReasoning, liveContent] = live.blocks
    mergeSnapshot(live, structuredClone({ ...message('sent', [reasoning, content(longText)]), updatedAt: 9 }))
    expect(live.status).toBe('sent')
    expect(live.updatedAt).toBe(9)
    expect(live.blocks[0]).toBe(liveReasoning)
    expect(live.blocks[1]).toBe(liveContent)
  })

  it('takes a block the snapshot changed and the blocks a lost delta missed', () => {
    const live = reactive(message('streaming', [reasoning, content('partial')])) as ChatMessageView
    const liveReasoning = live.blocks[0]
    const error: MessageBlock = {
      id: 'e',
      kind: 'error',
      status: 'error',
      text: 'boom',
      data: { code: 'internal' },
      createdAt: 1,
      updatedAt: 1
    }
    mergeSnapshot(live, structuredClone(message('error', [reasoning, content('partial and more'), error])))
    expect(live.blocks[0]).toBe(liveReasoning)
    expect(live.blocks.map((b) => ('text' in b ? b.text : ''))).toEqual([
      'thought',
      'partial and more',
      'boom'
    ])
  })

  it('drops blocks the snapshot no longer has', () => {
    const live = reactive(message('sent', [reasoning, content('x')])) as ChatMessageView
    mergeSnapshot(live, structuredClone(message('sent', [content('x')])))
    expect(live.blocks.map((b) => b.kind)).toEqual(['content'])
  })
})
