import { describe, expect, it } from 'vitest'
import { textReply, useLoopHarness } from './helpers'

const harness = useLoopHarness()

describe('reading a message as its run ends', () => {
  it('a read on the completion event gets the settled message, never a streaming one', async () => {
    const h = await harness([textReply('Done here.')])
    const seen: string[] = []
    h.presenters.events.subscribe((name, payload) => {
      // A window re-reads the message when it hears the end (stores/chat.ts onTerminal).
      if (name === 'chat.stream.completed')
        seen.push(h.presenters.agentRuntime.getMessage((payload as { messageId: string }).messageId).status)
    })
    const { sessionId } = await h.send('hi')
    await h.idle(sessionId)
    expect(seen).toEqual(['sent'])
  })
})
