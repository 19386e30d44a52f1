import { describe, expect, it } from 'vitest'
import type { PendingInteraction } from '@shared/types/session'
import { placeInteractions } from '@renderer/stores/lib/interactionPlacement'

const request = (id: string, sessionId: string, toolCallId: string | null): PendingInteraction =>
  ({ id, sessionId, toolCallId, kind: 'permission', status: 'pending' }) as PendingInteraction

const call = (id: string, name: string, status: 'pending' | 'loading' | 'success') => ({
  kind: 'tool_call' as const,
  status,
  toolCall: { id, name, params: '{}' }
})

const messages = (...blocks: ReturnType<typeof call>[]) =>
  [{ id: 'm1', blocks }] as unknown as Parameters<typeof placeInteractions>[1]

describe('where a request shows its card', () => {
  it('puts a request on the tool call that waits for it', () => {
    const placed = placeInteractions(
      [request('i1', 's1', 'c1')],
      messages(call('c1', 'write', 'pending')),
      's1'
    )
    expect(placed.onCall.get('c1')?.map((i) => i.id)).toEqual(['i1'])
    expect(placed.docked).toEqual([])
  })

  it("puts a subagent's requests on the parent's running orchestrator call", () => {
    const placed = placeInteractions(
      [request('i1', 'child', 'cc1'), request('i2', 'child2', 'cc2')],
      messages(
        call('o0', 'subagent_orchestrator', 'success'),
        call('o1', 'subagent_orchestrator', 'loading')
      ),
      's1'
    )
    expect(placed.onCall.get('o1')?.map((i) => i.id)).toEqual(['i1', 'i2'])
    expect(placed.onCall.has('o0')).toBe(false)
  })

  it('docks a request whose call is not loaded, so none is ever invisible', () => {
    const placed = placeInteractions(
      [request('i1', 's1', 'gone'), request('i2', 's1', null), request('i3', 'child', 'x')],
      messages(call('c1', 'exec', 'success')),
      's1'
    )
    expect(placed.docked.map((i) => i.id)).toEqual(['i1', 'i2', 'i3'])
    expect(placed.onCall.size).toBe(0)
  })
})
