import type { FakeResponse, RecordedRequest } from '../../fixtures/llm/script'
import type { TapeEntry } from '@shared/types/tape'
import type { LoopHarness } from '../loop/helpers'
import { openAiBody, type OpenAiRequest } from '../../fixtures/llm/openAiRequest'

export const HANDOFF = '# Structured Handoff'

export function userTexts(body: OpenAiRequest): string[] {
  return body.messages
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join('')
    )
}

export function toolNames(body: OpenAiRequest): string[] {
  return (body.tools ?? []).map((t) => t.function.name)
}

export const isChild = (body: OpenAiRequest) => userTexts(body).some((t) => t.startsWith(HANDOFF))
export const hasToolResult = (body: OpenAiRequest) => body.messages.some((m) => m.role === 'tool')
/** The request answers a tool round of this turn (earlier turns' tool results do not count). */
export const lastIsToolResult = (body: OpenAiRequest) => body.messages.at(-1)?.role === 'tool'

/** A script answering parent requests and child (handoff) requests differently. */
export function splitScript(handlers: {
  parent: (body: OpenAiRequest) => FakeResponse
  child: (handoff: string, body: OpenAiRequest) => FakeResponse
}): (request: RecordedRequest) => FakeResponse {
  return (request) => {
    const body = openAiBody(request.body)
    if (isChild(body))
      return handlers.child(
        userTexts(body).find((t) => t.startsWith(HANDOFF))!,
        body
      )
    return handlers.parent(body)
  }
}

export function childBodies(h: LoopHarness): OpenAiRequest[] {
  return h.bodies().filter(isChild)
}

export function parentBodies(h: LoopHarness): OpenAiRequest[] {
  return h.bodies().filter((b) => !isChild(b))
}

/** What a subagent's fork/merge/discard and result entries carry, as the assertions read them. */
export type SubagentTapeEntry = TapeEntry & {
  payload: { data: { result?: string; forkTapeId?: string } }
  meta: { fork?: { tapeId: string } }
}

/** The parent tape's entries with this name. */
export function tapeEvents(h: LoopHarness, sessionId: string, name: string): SubagentTapeEntry[] {
  const tapeId = h.presenters.sessions.require(sessionId).tapeId
  return h.presenters.tape
    .entries(tapeId, { limit: 1000 })
    .filter((e) => e.name === name)
    .map((e) => e as SubagentTapeEntry)
}
