import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AcpTurnEvent } from '@shared/types/acp'
import { acpAgentChanged } from '@shared/contracts/events/acp.events'
import { processStartTime } from '../../../src/main/presenter/hygiene/startTime'
import type { AcpMcpServerSource } from '../../../src/main/presenter/acpPresenter'
import { script, type FakeStep } from '../../fixtures/acp/script'
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
const harnesses: AcpHarness[] = []

beforeEach(() => {
  world = createWorld()
})

afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close()
  world.close()
})

function open(options: Parameters<typeof createHarness>[1] = {}): AcpHarness {
  const h = createHarness(world, options)
  harnesses.push(h)
  return h
}

function turn(
  h: AcpHarness,
  agentId: string,
  chatSessionId: string,
  steps: FakeStep[] | string,
  options: { workspaceDir?: string; signal?: AbortSignal } = {}
): AsyncGenerator<AcpTurnEvent> {
  return h.acp.prompt({
    chatSessionId,
    agentId,
    workspaceDir: options.workspaceDir ?? world.workspace,
    content: [{ type: 'text', text: typeof steps === 'string' ? steps : script(...steps) }],
    hooks: answering(() => 'reject').hooks,
    signal: options.signal
  })
}

const starts = (h: AcpHarness) => h.records().filter((r) => r.event === 'start')

/** True when `pid` is gone (or a zombie waiting to be reaped, which runs nothing). */
async function isGone(pid: number): Promise<boolean> {
  return (await processStartTime(pid)) === null
}

describe('agent processes', () => {
  it('shares one process between chats in the same folder, and starts another for another folder', async () => {
    const h = open()
    const agentId = await h.addFakeAgent()
    const elsewhere = join(world.root, 'other-workspace')
    mkdirSync(elsewhere)
    await collect(turn(h, agentId, 'chat-a', [{ text: 'a' }]))
    await collect(turn(h, agentId, 'chat-b', [{ text: 'b' }]))
    expect(starts(h)).toHaveLength(1)
    await collect(turn(h, agentId, 'chat-c', [{ text: 'c' }], { workspaceDir: elsewhere }))
    expect(starts(h)).toHaveLength(2)
    const news = h.records().filter((r) => r.event === 'new')
    expect(news.map((r) => r.cwd)).toEqual([world.workspace, world.workspace, elsewhere])
    const view = h.acp.getAgent(agentId)
    expect(view.status.processes.map((p) => [p.workspaceDir, p.sessions])).toEqual([
      [world.workspace, 2],
      [elsewhere, 1]
    ])
    expect(view.status.processes[0].agentInfo).toEqual({
      name: 'fake-acp-agent',
      title: 'Fake agent',
      version: '1.0.0'
    })
  })

  it('fails only the turns in flight when the agent crashes, and starts it again for the next message', async () => {
    const h = open()
    const agentId = await h.addFakeAgent()
    // chat-c finished a turn earlier; chat-b is in the middle of one.
    await collect(turn(h, agentId, 'chat-c', [{ text: 'done' }]))
    const stopB = new AbortController()
    const inFlight = turn(h, agentId, 'chat-b', [{ text: 'waiting' }, { waitForCancel: true }], {
      signal: stopB.signal
    })
    expect((await inFlight.next()).value).toEqual({ type: 'text', text: 'waiting' })
    const firstPid = starts(h)[0].pid as number

    const crash = collect(
      turn(h, agentId, 'chat-a', [{ crash: { code: 7, stderr: 'fake agent: out of cheese' } }])
    )
    await expect(crash).rejects.toMatchObject({
      code: 'acp_agent_exited',
      message: expect.stringContaining('exited with code 7: fake agent: out of cheese'),
      details: expect.objectContaining({
        exitCode: 7,
        signal: null,
        stderrTail: ['fake agent: out of cheese']
      })
    })
    await expect(inFlight.next()).rejects.toMatchObject({ code: 'acp_agent_exited' })
    expect(await isGone(firstPid)).toBe(true)
    const crashed = h.acp.getAgent(agentId).status
    expect(crashed.processes).toEqual([])
    expect(crashed.lastError).toContain('exited with code 7')
    expect(
      h.events.some(
        (e) =>
          e.name === acpAgentChanged.name &&
          (e.payload as { agent: { status: { lastError?: string } } }).agent.status.lastError?.includes(
            'code 7'
          )
      )
    ).toBe(true)

    // Every chat goes on with a new process; chat-c continues its own session.
    expect(saidText(await collect(turn(h, agentId, 'chat-a', [{ text: 'again' }])))).toBe('again')
    expect(saidText(await collect(turn(h, agentId, 'chat-c', [{ history: true }])))).toBe(
      `history:2:${script({ text: 'done' })}`
    )
    expect(starts(h)).toHaveLength(2)
    expect(starts(h)[1].pid).not.toBe(firstPid)
  })

  it('reports a crash by signal with the signal', async () => {
    const h = open()
    const agentId = await h.addFakeAgent()
    await expect(
      collect(turn(h, agentId, 'chat-a', [{ crash: { signal: 'SIGKILL' } }]))
    ).rejects.toMatchObject({
      code: 'acp_agent_exited',
      message: expect.stringContaining('was killed by SIGKILL'),
      details: expect.objectContaining({ exitCode: null, signal: 'SIGKILL' })
    })
  })

  it('says clearly when the agent program does not exist', async () => {
    const h = open()
    await h.acp.addCustomAgent({ id: 'ghost', name: 'Ghost', command: join(world.root, 'no-such-agent') })
    await expect(collect(turn(h, 'ghost', 'chat-a', 'hi'))).rejects.toMatchObject({
      code: 'acp_agent_missing',
      message: expect.stringContaining('Not found: ')
    })
    expect(h.acp.getAgent('ghost').status.lastError).toContain('Not found: ')
  })

  it('kills the whole process tree on dispose, children in other sessions too', async () => {
    const h = open()
    const agentId = await h.addFakeAgent()
    const said = saidText(
      await collect(
        turn(h, agentId, 'chat-a', [{ spawnChild: {} }, { text: ' ' }, { spawnChild: { detached: true } }])
      )
    )
    const [child, detached] = [...said.matchAll(/child:(\d+)/g)].map((m) => Number(m[1]))
    const agentPid = starts(h)[0].pid as number
    for (const pid of [agentPid, child, detached]) expect(await isGone(pid)).toBe(false)
    await h.close()
    harnesses.splice(harnesses.indexOf(h), 1)
    for (const pid of [agentPid, child, detached]) expect(await isGone(pid)).toBe(true)
  })

  it('stops an agent on request and when it is turned off; the next message starts it again', async () => {
    const h = open()
    const agentId = await h.addFakeAgent()
    await collect(turn(h, agentId, 'chat-a', [{ text: 'x' }]))
    const pid = starts(h)[0].pid as number
    const view = await h.acp.stopAgent(agentId)
    expect(view.status.processes).toEqual([])
    expect(view.status.lastError).toBeUndefined()
    expect(await isGone(pid)).toBe(true)
    await collect(turn(h, agentId, 'chat-a', [{ text: 'y' }]))
    await h.acp.setEnabled(agentId, false)
    expect(h.acp.getAgent(agentId).status.processes).toEqual([])
    await expect(collect(turn(h, agentId, 'chat-a', 'z'))).rejects.toMatchObject({
      code: 'acp_agent_disabled'
    })
  })
})

describe('continuing a chat after a restart', () => {
  it('loads the chat session with session/load after the app restarts', async () => {
    const first = open()
    const agentId = await first.addFakeAgent()
    await collect(turn(first, agentId, 'chat-a', 'remember the word PLUM'))
    const sessionId = first.records().find((r) => r.event === 'new')?.sessionId
    await first.close()
    harnesses.splice(harnesses.indexOf(first), 1)

    const second = open()
    const events = await collect(turn(second, agentId, 'chat-a', [{ history: true }]))
    // The replayed history is not this turn's output.
    expect(saidText(events)).toBe('history:2:remember the word PLUM')
    const loads = second.records().filter((r) => r.event === 'load')
    expect(loads).toEqual([expect.objectContaining({ sessionId, found: true, cwd: world.workspace })])
    expect(second.records().filter((r) => r.event === 'new')).toHaveLength(1)
  })

  it('resumes instead when the agent offers session/resume', async () => {
    const first = open()
    const agentId = await first.addFakeAgent('resumer', { caps: { resume: true } })
    await collect(turn(first, agentId, 'chat-a', 'hello'))
    await first.close()
    harnesses.splice(harnesses.indexOf(first), 1)
    const second = open()
    expect(saidText(await collect(turn(second, agentId, 'chat-a', [{ history: true }])))).toBe(
      'history:2:hello'
    )
    expect(second.records().map((r) => r.event)).toContain('resume')
    expect(second.records().map((r) => r.event)).not.toContain('load')
  })

  it('starts a new session when the agent no longer knows the stored one', async () => {
    const first = open()
    const agentId = await first.addFakeAgent()
    await collect(turn(first, agentId, 'chat-a', 'hello'))
    await first.close()
    harnesses.splice(harnesses.indexOf(first), 1)
    rmSync(world.stateDir, { recursive: true, force: true })
    const second = open()
    expect(saidText(await collect(turn(second, agentId, 'chat-a', [{ history: true }])))).toBe('history:1:')
    expect(second.records().filter((r) => r.event === 'new')).toHaveLength(2)
  })
})

describe('a deleted chat', () => {
  it('closes its session where the agent offers it and forgets it', async () => {
    const h = open()
    const agentId = await h.addFakeAgent('closer', { caps: { close: true } })
    await collect(turn(h, agentId, 'chat-a', 'hello'))
    const sessionId = h.records().find((r) => r.event === 'new')?.sessionId
    await h.acp.forgetChat('chat-a')
    expect(h.records()).toContainEqual(expect.objectContaining({ event: 'close', sessionId }))
    expect(h.acp.getSessionState('chat-a', agentId)).toBeNull()
    // A chat with the same id later starts afresh: nothing was kept for it.
    await collect(turn(h, agentId, 'chat-a', 'again'))
    expect(h.records().filter((r) => r.event === 'new')).toHaveLength(2)
    expect(h.records().map((r) => r.event)).not.toContain('load')
  })
})

describe('MCP servers handed to the agent', () => {
  const servers: AcpMcpServerSource[] = [
    {
      id: 'files',
      name: 'Files',
      type: 'stdio',
      command: 'npx',
      args: ['-y', 'server-files', '~/notes'],
      env: { API_TOKEN: 'secret-value' },
      url: '',
      headers: {}
    },
    {
      id: 'remote',
      name: 'Remote',
      type: 'http',
      command: '',
      args: [],
      env: {},
      url: 'https://example.test/mcp',
      headers: { Authorization: 'Bearer x' }
    },
    {
      id: 'events',
      name: 'Events',
      type: 'sse',
      command: '',
      args: [],
      env: {},
      url: 'https://example.test/sse',
      headers: {}
    },
    {
      id: 'deepchat-time',
      name: 'Time',
      type: 'inmemory',
      command: 'deepchat-time',
      args: [],
      env: {},
      url: '',
      headers: {}
    }
  ]

  it('passes stdio servers always, and http or sse only to an agent that speaks them', async () => {
    const h = open({ mcpServers: servers })
    const plain = await h.addFakeAgent('plain')
    const http = await h.addFakeAgent('http', { caps: { mcp: { http: true } } })
    expect(saidText(await collect(turn(h, plain, 'chat-a', [{ mcpServers: true }])))).toBe(
      'mcp:[{"name":"files","type":"stdio"}]'
    )
    expect(saidText(await collect(turn(h, http, 'chat-a', [{ mcpServers: true }])))).toBe(
      'mcp:[{"name":"files","type":"stdio"},{"name":"remote","type":"http"}]'
    )
    const received = h.records().find((r) => r.event === 'new')?.mcpServers as Record<string, unknown>[]
    expect(received[0]).toEqual({
      name: 'files',
      command: 'npx',
      args: ['-y', 'server-files', `${process.env.HOME}/notes`],
      env: [{ name: 'API_TOKEN', value: 'secret-value' }]
    })
  })
})
