import { describe, expect, it } from 'vitest'
import type { BlockOf } from '@shared/types/blocks'
import { callsReply, textReply, toolCall, useLoopHarness } from '../loop/helpers'
import { type OpenAiRequest } from '../../fixtures/llm/openAiRequest'

const harness = useLoopHarness()
const toolNames = (body: OpenAiRequest): string[] => (body.tools ?? []).map((t) => t.function.name)

describe('skill activation in a turn', () => {
  it('skill_view activates the skill and the very next request offers the tools it unlocks', async () => {
    const h = await harness([
      callsReply(toolCall('s1', 'skill_view', { name: 'deepchat-settings' })),
      callsReply(toolCall('s2', 'deepchat_settings_read', {})),
      textReply('Your model is fake-model.')
    ])
    const { sessionId, assistantMessageId } = await h.send('which model are you?')
    await h.idle(sessionId)
    const [first, second, third] = h.bodies()
    expect(toolNames(first)).toContain('skill_view')
    expect(toolNames(first)).not.toContain('deepchat_settings_read')
    expect(toolNames(second)).toContain('deepchat_settings_read')
    expect(toolNames(third)).toContain('deepchat_settings_set_model')
    const message = h.presenters.sessions.messages.require(assistantMessageId)
    const read = message.blocks.find(
      (b): b is BlockOf<'tool_call'> => b.kind === 'tool_call' && b.toolCall.name === 'deepchat_settings_read'
    )!
    expect(read.status).toBe('success')
    expect(read.toolCall.response).toContain('"modelId": "fake-model"')
  })
})
