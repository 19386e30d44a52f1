/* eslint-disable @typescript-eslint/no-explicit-any -- wire bodies are checked by shape */
import type { FakeResponse, RecordedRequest } from '../../fixtures/llm/script'
import type { LoopHarness } from '../loop/helpers'

export const HANDOFF = '# Structured Handoff'

export function userTexts(body: any): string[] {
  return (body.messages as any[])
    .filter((m) => m.role === 'user')
    .map((m) =>
      typeof m.content === 'string' ? m.content : (m.content as any[]).map((p) => p.text ?? '').join('')
    )
}

export function toolNames(body: any): string[] {
  return ((body.tools ?? []) as any[]).map((t) => t.function?.name)
}

export const isChild = (body: any) => userTexts(body).some((t) => t.startsWith(HANDOFF))
export const hasToolResult = (body: any) => (body.messages as any[]).some((m) => m.role === 'tool')
/** The request answers a tool round of this turn (earlier turns' tool results do not count). */
export const lastIsToolResult = (body: any) => (body.messages as any[]).at(-1)?.role === 'tool'

/** A script answering parent requests and child (handoff) requests differently. */
export function splitScript(handlers: {
  parent: (body: any) => FakeResponse
  child: (handoff: string, body: any) => FakeResponse
}): (request: RecordedRequest) => FakeResponse {
  return (request) => {
    const body = request.body as any
    if (isChild(body))
      return handlers.child(
        userTexts(body).find((t) => t.startsWith(HANDOFF))!,
        body
      )
    return handlers.parent(body)
  }
}

export function childBodies(h: LoopHarness): any[] {
  return h.bodies().filter(isChild)
}

export function parentBodies(h: LoopHarness): any[] {
  return h.bodies().filter((b) => !isChild(b))
}

/** The parent tape's entries with this name. */
export function tapeEvents(h: LoopHarness, sessionId: string, name: string): any[] {
  const tapeId = h.presenters.sessions.require(sessionId).tapeId
  return h.presenters.tape.entries(tapeId, { limit: 1000 }).filter((e) => e.name === name)
}
