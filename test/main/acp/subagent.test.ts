import { describe, expect, it } from 'vitest'
import { ACP_PROVIDER_ID } from '@shared/types/acp'
import { FORK_MERGE } from '@shared/types/tape'
import type { FakeResponse, RecordedRequest } from '../../fixtures/llm/script'
import { AGENT_ID, LLM_MODEL, useAcpChat } from './chatHarness'
import { acpSetEnabled } from '@shared/contracts/routes/acp.routes'
import { subagentsGetSlots } from '@shared/contracts/routes/subagents.routes'
import { openAiBody } from '../../fixtures/llm/openAiRequest'

const open = useAcpChat()

/** The parent model hands one task to the agent's slot, then answers with what came back. */
function parentScript(request: RecordedRequest): FakeResponse {
  const { messages } = openAiBody(request.body)
  const result = messages.find((m) => m.role === 'tool')
  if (result)
    return { steps: [{ type: 'text', text: ['Subagent said: ', String(result.content).slice(0, 2000)] }] }
  const args = {
    mode: 'parallel',
    tasks: [{ slotId: `acp-${AGENT_ID}`, title: 'Echo', prompt: 'Please echo this task.' }]
  }
  return {
    steps: [
      {
        type: 'tool_calls',
        calls: [{ id: 'sub-1', name: 'subagent_orchestrator', argumentChunks: [JSON.stringify(args)] }]
      }
    ]
  }
}

describe('an agent as a subagent', () => {
  it('offers every enabled agent as a slot, and not a turned-off one', async () => {
    const chat = await open({ llm: () => ({ steps: [{ type: 'text', text: 'hi' }] }) })
    const { sessionId } = await chat.send('hello', { model: LLM_MODEL })
    await chat.idle(sessionId)
    const { config } = await chat.call(subagentsGetSlots, { sessionId })
    expect(config.slots).toContainEqual(
      expect.objectContaining({ id: `acp-${AGENT_ID}`, targetType: 'acp', agentId: AGENT_ID })
    )
    await chat.call(acpSetEnabled, { agentId: AGENT_ID, enabled: false })
    const after = await chat.call(subagentsGetSlots, { sessionId })
    expect(after.config.slots.map((s) => s.id)).toEqual(['self'])
  })

  it('hands a task to the fake agent; its run is a forked tape whose result is merged into the parent tape', async () => {
    const chat = await open({ llm: parentScript })
    const { sessionId, assistantMessageId } = await chat.send('delegate it', { model: LLM_MODEL })
    await chat.idle(sessionId)
    const [child] = chat.presenters.sessions.children(sessionId)
    const parent = chat.presenters.sessions.require(sessionId)
    expect(child).toMatchObject({ kind: 'subagent', providerId: ACP_PROVIDER_ID, modelId: AGENT_ID })
    expect(child.tapeId.startsWith(`${parent.tapeId}::fork::`)).toBe(true)
    // The agent got the handoff as its prompt, in the parent's folder.
    const prompt = chat.records().find((r) => r.event === 'prompt')
    expect(String(prompt?.text)).toContain('# Structured Handoff')
    expect(String(prompt?.text)).toContain('Please echo this task.')
    expect(chat.records().find((r) => r.event === 'new')).toMatchObject({ cwd: parent.workspaceDir })

    const merges = chat.presenters.tape
      .entries(parent.tapeId, { limit: 1000 })
      .filter((e) => e.name === FORK_MERGE)
    expect(merges).toHaveLength(1)
    const merged = (merges[0].payload as { data: { result: string } }).data
    expect(merged).toMatchObject({ status: 'completed', childSessionId: child.id, slotId: `acp-${AGENT_ID}` })
    expect(merged.result).toMatch(/^You said: # Structured Handoff/)
    expect(chat.said(assistantMessageId)).toContain('You said: # Structured Handoff')
  })
})
