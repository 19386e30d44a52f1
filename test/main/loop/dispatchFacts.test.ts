import { describe, expect, it } from 'vitest'
import type { MCPToolCall, MCPToolDefinition, ToolFacts } from '@shared/types/tools'
import {
  BlockAccumulator,
  type CompletedToolCall
} from '../../../src/main/presenter/agentRuntimePresenter/blockAccumulator'
import { dispatchRound, type DispatchTools } from '../../../src/main/presenter/agentRuntimePresenter/dispatch'
import type { ToolCallResult } from '../../../src/main/presenter/toolPresenter'
import { AgentToolManager } from '../../../src/main/presenter/toolPresenter/agentTools/agentToolManager'

const builtIns = new AgentToolManager().definitionsFor()

/** A made-up tool with the given facts: dispatch must go by the facts, not by known names. */
function definition(name: string, facts: ToolFacts): MCPToolDefinition {
  return {
    type: 'function',
    source: 'mcp',
    function: { name, description: name, parameters: { type: 'object', properties: {} } },
    server: { id: 'x', name: 'x' },
    facts
  }
}

function ok(call: MCPToolCall, extra: Partial<ToolCallResult['rawData']> = {}): ToolCallResult {
  return {
    content: [{ type: 'text', text: `${call.name} done` }],
    rawData: {
      toolCallId: call.id,
      name: call.name,
      source: 'agent',
      serverId: 'x',
      isError: false,
      toolResult: { ok: true, summary: 'done' },
      ...extra
    }
  }
}

/** Tool calls as the model made them, each with its block in a fresh accumulator. */
function round(names: string[]) {
  let n = 0
  const acc = new BlockAccumulator([], { append: () => {}, upsert: () => {} }, () => `id${++n}`)
  const calls: CompletedToolCall[] = names.map((name, i) => {
    const block = acc.add({
      kind: 'tool_call',
      status: 'pending',
      text: '',
      toolCall: { id: `c${i}`, name, params: '{}' }
    })
    return { id: `c${i}`, name, arguments: '{}', blockId: block.id }
  })
  return { acc, calls, newId: () => `id${++n}` }
}

const ctx = { sessionId: 's', workspaceDir: '/tmp', signal: new AbortController().signal }

describe('dispatch by tool facts', () => {
  it('runs parallel-safe calls together and any other call alone, in the model order', async () => {
    const log: string[] = []
    let running = 0
    let releaseReads!: () => void
    const bothReadsStarted = new Promise<void>((resolve) => (releaseReads = resolve))
    const tools: DispatchTools = {
      preCheckToolPermission: async () => ({ status: 'allowed' }),
      async callTool(call) {
        running++
        log.push(`start ${call.name} (${running} running)`)
        // Each read waits for the other: run one after the other, they would wait forever.
        if (call.name === 'read' || call.name === 'grep') {
          if (log.filter((l) => l.startsWith('start read') || l.startsWith('start grep')).length === 2)
            releaseReads()
          await bothReadsStarted
        }
        running--
        log.push(`end ${call.name}`)
        return ok(call)
      }
    }
    const { acc, calls, newId } = round(['read', 'grep', 'write', 'glob'])
    const interactions = await dispatchRound(tools, { calls, acc, definitions: builtIns, ctx, newId })
    expect(interactions).toEqual([])
    expect(log).toEqual([
      'start read (1 running)',
      'start grep (2 running)',
      'end read',
      'end grep',
      'start write (1 running)',
      'end write',
      'start glob (1 running)',
      'end glob'
    ])
    expect(calls.map((c) => acc.getOf(c.blockId, 'tool_call')?.toolCall.response)).toEqual([
      'read done',
      'grep done',
      'write done',
      'glob done'
    ])
  })

  it('asks the question of any tool whose interaction is a question, without a permission check', async () => {
    const checked: string[] = []
    const question = { question: 'Which?', options: [{ label: 'A' }], multiple: false, custom: false }
    const tools: DispatchTools = {
      async preCheckToolPermission(call) {
        checked.push(call.name)
        return { status: 'allowed' }
      },
      callTool: async (call) => ok(call, { interaction: { kind: 'question', question } })
    }
    const definitions = [
      definition('ask_user', { readOnly: false, parallelSafe: false, interaction: 'question' }),
      definition('lookup', { readOnly: true, parallelSafe: true })
    ]
    const { acc, calls, newId } = round(['ask_user', 'lookup'])
    const interactions = await dispatchRound(tools, { calls, acc, definitions, ctx, newId })
    expect(checked).toEqual(['lookup'])
    expect(interactions).toMatchObject([
      { kind: 'question', toolCallId: 'c0', request: { actionType: 'question', question } }
    ])
    expect(acc.getOf(calls[0].blockId, 'tool_call')?.status).toBe('pending')
    expect(acc.blocks.find((b) => b.kind === 'action')).toMatchObject({ status: 'pending' })
  })
})
