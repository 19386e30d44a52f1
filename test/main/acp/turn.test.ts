import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'
import type { AcpPermissionAsk, AcpTurnEvent } from '@shared/types/acp'
import { acpSessionChanged } from '@shared/contracts/events/acp.events'
import { script } from '../../fixtures/acp/script'
import type { AcpTurnHooks } from '../../../src/main/presenter/acpPresenter'
import {
  answering,
  collect,
  createHarness,
  createWorld,
  saidText,
  type AcpHarness,
  type AcpWorld
} from './harness'

let world: AcpWorld
let h: AcpHarness
let agentId: string

beforeEach(async () => {
  world = createWorld()
  h = createHarness(world)
  agentId = await h.addFakeAgent()
})

afterEach(async () => {
  await h.close()
  world.close()
})

function prompt(
  text: string,
  hooks: AcpTurnHooks = answering(() => 'allow_once').hooks,
  signal?: AbortSignal
) {
  return h.acp.prompt({
    chatSessionId: 'chat-1',
    agentId,
    workspaceDir: world.workspace,
    content: [{ type: 'text', text }],
    hooks,
    signal
  })
}

const toolEvents = (events: AcpTurnEvent[]) =>
  events.filter((e): e is Extract<AcpTurnEvent, { type: 'tool_call' }> => e.type === 'tool_call')

describe('a turn with an ACP agent', () => {
  it('streams text, thoughts, a plan and tool calls as our own events, ending with the stop reason', async () => {
    const file = join(world.workspace, 'a.txt')
    const events = await collect(
      prompt(
        script(
          { thought: 'Let me look.' },
          { text: ['Hel', 'lo'] },
          {
            plan: [
              { content: 'Read a.txt', priority: 'high', status: 'in_progress' },
              { content: 'Fix it', priority: 'low', status: 'pending' }
            ]
          },
          {
            tool: {
              id: 'edit-1',
              title: 'Edit a.txt',
              kind: 'edit',
              status: 'pending',
              locations: [{ path: file, line: 3 }],
              content: [{ type: 'diff', path: file, oldText: 'old', newText: 'new' }]
            }
          },
          { toolUpdate: { id: 'edit-1', status: 'completed' } },
          { plan: [{ content: 'Read a.txt', priority: 'high', status: 'completed' }] }
        )
      )
    )
    expect(events.map((e) => e.type)).toEqual([
      'thought',
      'text',
      'text',
      'plan',
      'tool_call',
      'tool_call',
      'plan',
      'stop'
    ])
    expect(events[0]).toEqual({ type: 'thought', text: 'Let me look.' })
    expect(saidText(events)).toBe('Hello')
    const plans = events.filter((e) => e.type === 'plan')
    expect(plans[1]).toEqual({
      type: 'plan',
      entries: [{ content: 'Read a.txt', priority: 'high', status: 'completed' }]
    })
    const [start, update] = toolEvents(events)
    expect(start.phase).toBe('start')
    expect(start.call).toMatchObject({
      id: 'edit-1',
      title: 'Edit a.txt',
      kind: 'edit',
      status: 'pending',
      locations: [{ path: file, line: 3 }],
      content: [{ type: 'diff', path: file, oldText: 'old', newText: 'new' }]
    })
    // The update carries only the status; the event still has the whole call.
    expect(update.phase).toBe('update')
    expect(update.call).toMatchObject({
      status: 'completed',
      title: 'Edit a.txt',
      locations: [{ path: file }]
    })
    expect(update.call.content).toEqual(start.call.content)
    expect(events.at(-1)).toEqual({ type: 'stop', stopReason: 'end_turn' })
  })

  it.skipIf(withoutBwrap)(
    'shows a terminal the agent runs inside its tool call, with the output and exit status',
    NEEDS_BWRAP,
    async () => {
      writeFileSync(join(world.workspace, 'notes.txt'), 'hello from notes\n')
      const events = await collect(
        prompt(
          script(
            { tool: { id: 'run-1', title: 'cat notes.txt', kind: 'execute' } },
            { terminal: { command: 'cat notes.txt', toolCallId: 'run-1' } }
          )
        )
      )
      expect(saidText(events)).toBe('terminal:exit=0:truncated=false:hello from notes\n')
      const last = toolEvents(events).at(-1)!
      expect(last.call.status).toBe('completed')
      expect(last.call.content).toEqual([
        {
          type: 'terminal',
          terminalId: expect.stringMatching(/^term_/),
          command: 'cat notes.txt',
          output: 'hello from notes\n',
          truncated: false,
          exitStatus: { exitCode: 0, signal: null },
          sandboxed: true
        }
      ])
    }
  )

  // "Always" is remembered as our rule (the chat loop stores it), so the agent only ever gets
  // allow-once: it keeps asking, and revoking the rule in Settings takes effect.
  it.each([
    ['allow_once', 'permission:selected:yes-once'],
    ['allow_always', 'permission:selected:yes-once'],
    ['reject', 'permission:selected:no']
  ] as const)(
    'passes the answer %s to the agent as its allow-once or reject option',
    async (answer, said) => {
      const answers = answering(() => answer)
      const events = await collect(
        prompt(
          script(
            {
              tool: {
                id: 'w-1',
                title: 'Write out.txt',
                kind: 'edit',
                content: [{ type: 'diff', path: join(world.workspace, 'out.txt'), newText: 'x' }]
              }
            },
            { permission: { toolCallId: 'w-1' } }
          ),
          answers.hooks
        )
      )
      expect(saidText(events)).toBe(said)
      expect(answers.asks).toHaveLength(1)
      const ask = answers.asks[0] as Extract<AcpPermissionAsk, { kind: 'agent_tool' }>
      expect(ask.kind).toBe('agent_tool')
      expect(ask).toMatchObject({ chatSessionId: 'chat-1', agentId })
      // The card gets what the agent said about the call earlier (its diff), not only the request.
      expect(ask.toolCall.content[0]).toMatchObject({ type: 'diff', newText: 'x' })
      expect(ask.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once'])
      expect(ask.request).toMatchObject({
        type: 'mcp',
        server: `acp:${agentId}`,
        originalTool: 'edit',
        suggestedRule: { kind: 'mcp', pattern: `acp:${agentId}/edit` }
      })
    }
  )

  it('lets an allow rule for the agent’s tool kind answer without asking, and a deny rule refuse', async () => {
    const toolScript = script(
      { tool: { id: 'r-1', title: 'Read a file', kind: 'read' } },
      { permission: { toolCallId: 'r-1' } }
    )
    const answers = answering(() => 'reject')
    const allow = h.permissions.addRule({ kind: 'mcp', pattern: `acp:${agentId}/read`, effect: 'allow' })
    expect(saidText(await collect(prompt(toolScript, answers.hooks)))).toBe('permission:selected:yes-once')
    h.permissions.revokeRule(allow.id)
    h.permissions.addRule({ kind: 'mcp', pattern: `acp:${agentId}/*`, effect: 'deny' })
    expect(saidText(await collect(prompt(toolScript, answers.hooks)))).toBe('permission:selected:no')
    expect(answers.asks).toEqual([])
  })

  it('sends session/cancel when the user stops, and ends the turn as cancelled', async () => {
    const stop = new AbortController()
    const events: AcpTurnEvent[] = []
    for await (const event of prompt(
      script({ text: 'working' }, { waitForCancel: true }),
      undefined,
      stop.signal
    )) {
      events.push(event)
      if (event.type === 'text') stop.abort()
    }
    expect(events.at(-1)).toEqual({ type: 'stop', stopReason: 'cancelled' })
    expect(h.records().filter((r) => r.event === 'cancel')).toHaveLength(1)
  })

  it('never sends session/cancel after a turn that ended by itself', async () => {
    const stop = new AbortController()
    await collect(prompt(script({ text: 'one' }), undefined, stop.signal))
    await collect(prompt(script({ text: 'two' }), undefined, stop.signal))
    // A third turn proves the agent read everything we sent before it.
    await collect(prompt(script({ text: 'three' })))
    expect(h.records().filter((r) => r.event === 'prompt')).toHaveLength(3)
    expect(h.records().filter((r) => r.event === 'cancel')).toHaveLength(0)
  })

  it('withdraws a pending permission ask when the user stops; the agent gets "cancelled"', async () => {
    const stop = new AbortController()
    let askSignal: AbortSignal | undefined
    const hooks = {
      requestPermission: (_ask: AcpPermissionAsk, signal: AbortSignal) =>
        new Promise<'allow_once'>(() => {
          askSignal = signal
          stop.abort()
        })
    }
    const events = await collect(
      prompt(script({ permission: { toolCallId: 'x' } }, { text: 'after' }), hooks, stop.signal)
    )
    expect(askSignal?.aborted).toBe(true)
    expect(events.at(-1)).toEqual({ type: 'stop', stopReason: 'cancelled' })
    const outcome = h.records().find((r) => r.event === 'permission')?.outcome
    expect(outcome).toEqual({ outcome: 'cancelled' })
    expect(saidText(events)).not.toContain('after')
  })

  it('refuses a second message while the chat still waits for the first', async () => {
    const stop = new AbortController()
    const first = prompt(script({ text: 'busy' }, { waitForCancel: true }), undefined, stop.signal)[
      Symbol.asyncIterator
    ]()
    await first.next()
    await expect(collect(prompt(script({ text: 'second' })))).rejects.toMatchObject({ code: 'acp_turn_busy' })
    stop.abort()
    while (!(await first.next()).done);
  })

  it('keeps the modes, models and commands the agent offers, and changes mode and model', async () => {
    const events = await collect(
      prompt(
        script({ commands: [{ name: 'review', description: 'Review the diff', input: { hint: 'files' } }] })
      )
    )
    expect(events).toContainEqual({
      type: 'commands',
      commands: [{ name: 'review', description: 'Review the diff', inputHint: 'files' }]
    })
    const state = h.acp.getSessionState('chat-1', agentId)!
    expect(state.modes).toEqual({
      currentModeId: 'ask',
      availableModes: [
        { id: 'ask', name: 'Ask', description: 'Asks before changes' },
        { id: 'code', name: 'Code', description: null }
      ]
    })
    expect(state.models).toMatchObject({ currentModelId: 'fast', via: 'config_option', configId: 'model' })
    expect(state.commands.map((c) => c.name)).toEqual(['review'])

    expect((await h.acp.setSessionMode('chat-1', agentId, 'code')).modes?.currentModeId).toBe('code')
    expect((await h.acp.setSessionModel('chat-1', agentId, 'smart')).models?.currentModelId).toBe('smart')
    await expect(h.acp.setSessionMode('chat-1', agentId, 'nope')).rejects.toMatchObject({
      code: 'acp_invalid_input'
    })
    const records = h.records()
    expect(records).toContainEqual(expect.objectContaining({ event: 'set_mode', modeId: 'code' }))
    expect(records).toContainEqual(expect.objectContaining({ event: 'set_config_option', value: 'smart' }))
    const changed = h.events.filter((e) => e.name === acpSessionChanged.name)
    expect(changed.at(-1)?.payload).toMatchObject({ state: { models: { currentModelId: 'smart' } } })
  })
})

describe('an agent that offers models the older way', () => {
  it('sets the model through session/set_model', async () => {
    const legacy = await h.addFakeAgent('legacy', { caps: { models: 'legacy' } })
    await collect(
      h.acp.prompt({
        chatSessionId: 'chat-2',
        agentId: legacy,
        workspaceDir: world.workspace,
        content: [{ type: 'text', text: 'hi' }],
        hooks: answering(() => 'reject').hooks
      })
    )
    expect(h.acp.getSessionState('chat-2', legacy)?.models).toMatchObject({
      via: 'session_model',
      currentModelId: 'fast'
    })
    const state = await h.acp.setSessionModel('chat-2', legacy, 'smart')
    expect(state.models?.currentModelId).toBe('smart')
    expect(h.records()).toContainEqual(expect.objectContaining({ event: 'set_model', modelId: 'smart' }))
  })
})
