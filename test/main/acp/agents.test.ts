import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MASKED_SECRET } from '@shared/types/mcp'
import { acpAgentChanged, acpLogAppended } from '@shared/contracts/events/acp.events'
import { Router } from '../../../src/main/bridge/router'
import { registerAcpRoutes } from '../../../src/main/routes/acp'
import { loadBundledRegistry, resolveLaunch } from '../../../src/main/presenter/acpPresenter/registry'
import { ProtocolLog, redact } from '../../../src/main/presenter/acpPresenter/protocolLog'
import { script } from '../../fixtures/acp/script'
import { useTempDirs } from '../helpers/tempDir'
import {
  answering,
  collect,
  createHarness,
  createWorld,
  saidText,
  type AcpHarness,
  type AcpWorld
} from './harness'
import { until } from '../../helpers/until'
import {
  acpAddAgent,
  acpCheckInstall,
  acpList,
  acpProtocolLog,
  acpRemoveAgent,
  acpSetEnabled,
  acpSetEnvOverrides,
  acpUpdateAgent
} from '@shared/contracts/routes/acp.routes'
import type { RouteDef, RouteInput, RouteOutput } from '@shared/contracts/define'
import { AppError } from '@shared/errors'

const tempDir = useTempDirs()

describe('the bundled registry', () => {
  it('lists the well-known agents with pinned launch commands', () => {
    const registry = loadBundledRegistry()
    const byId = new Map(registry.agents.map((a) => [a.id, a]))
    expect(byId.get('claude-acp')?.distribution.npx?.package).toBe(
      '@agentclientprotocol/claude-agent-acp@0.54.1'
    )
    expect(byId.get('gemini')?.distribution.npx).toEqual({
      package: '@google/gemini-cli@0.49.0',
      args: ['--acp']
    })
    expect(byId.get('fast-agent')?.distribution.uvx).toEqual({
      package: 'fast-agent-acp==0.8.2',
      args: ['-x']
    })
    expect(byId.get('opencode')?.distribution.binary).toEqual({ command: 'opencode', args: ['acp'] })
    expect(registry.agents.length).toBeGreaterThanOrEqual(25)
    // Every npx package is pinned to a version, so a launch is reproducible.
    for (const agent of registry.agents)
      if (agent.distribution.npx) expect(agent.distribution.npx.package).toMatch(/.@\d/)
  })
})

describe('whether an agent can start here', () => {
  function binDir(...programs: string[]): string {
    const dir = tempDir()
    for (const program of programs) {
      writeFileSync(join(dir, program), '#!/bin/sh\n')
      chmodSync(join(dir, program), 0o755)
    }
    return dir
  }
  const kilo = loadBundledRegistry().agents.find((a) => a.id === 'kilo')!

  it('prefers the agent’s own program when it is on PATH', () => {
    const dir = binDir('kilo', 'npx')
    expect(resolveLaunch({ source: 'registry', agent: kilo }, { PATH: dir })).toMatchObject({
      status: 'installed',
      launcher: 'binary',
      command: join(dir, 'kilo'),
      args: ['acp']
    })
  })

  it('falls back to npx, which fetches the pinned package on first start', () => {
    const dir = binDir('npx')
    expect(resolveLaunch({ source: 'registry', agent: kilo }, { PATH: dir })).toMatchObject({
      status: 'on_demand',
      launcher: 'npx',
      command: join(dir, 'npx'),
      args: ['-y', '@kilocode/cli@7.3.54', 'acp']
    })
  })

  it('says what is missing when neither is there', () => {
    const install = resolveLaunch({ source: 'registry', agent: kilo }, { PATH: binDir() })
    expect(install).toMatchObject({ status: 'missing', resolvedPath: null })
    expect(install.detail).toContain('kilo or npx')
  })

  it('finds a custom command by path or on PATH, expanding ~ and $VAR', () => {
    const dir = binDir('my-agent')
    expect(
      resolveLaunch(
        { source: 'custom', command: 'my-agent', args: ['--acp', '$HOME/x'] },
        { PATH: dir, HOME: '/home/u' }
      )
    ).toMatchObject({ status: 'installed', command: join(dir, 'my-agent'), args: ['--acp', '/home/u/x'] })
    expect(
      resolveLaunch({ source: 'custom', command: '$BIN/my-agent', args: [] }, { PATH: '', BIN: dir })
    ).toMatchObject({
      status: 'installed',
      resolvedPath: join(dir, 'my-agent')
    })
    expect(resolveLaunch({ source: 'custom', command: 'nope-agent', args: [] }, { PATH: dir }).status).toBe(
      'missing'
    )
  })
})

describe('the protocol log', () => {
  it('keeps a bounded ring per agent', () => {
    const log = new ProtocolLog(() => {}, 3)
    for (let i = 1; i <= 5; i++)
      log.record('a', '/w', 'out', { id: i, method: 'session/prompt', params: { n: i } })
    expect(log.list('a').map((e) => e.seq)).toEqual([3, 4, 5])
    expect(log.list('a', { afterSeq: 4 }).map((e) => e.seq)).toEqual([5])
    expect(log.list('b')).toEqual([])
  })

  it('redacts credentials: secret-looking env entries, headers and keys, but not session ids', () => {
    expect(
      redact({
        sessionId: 's-1',
        apiKey: 'k',
        mcpServers: [
          {
            env: [
              { name: 'GITHUB_TOKEN', value: 'ghp_x' },
              { name: 'LANG', value: 'C' }
            ]
          },
          { headers: [{ name: 'Authorization', value: 'Bearer y' }] }
        ]
      })
    ).toEqual({
      sessionId: 's-1',
      apiKey: '[redacted]',
      mcpServers: [
        {
          env: [
            { name: 'GITHUB_TOKEN', value: '[redacted]' },
            { name: 'LANG', value: 'C' }
          ]
        },
        { headers: [{ name: 'Authorization', value: '[redacted]' }] }
      ]
    })
  })
})

describe('agents in settings', () => {
  let world: AcpWorld
  let h: AcpHarness
  let router: Router
  const call = <R extends RouteDef>(def: R, input: RouteInput<R>): Promise<RouteOutput<R>> =>
    router.call(def, input, { transport: 'test', clientId: 't' })
  /** Input the contract refuses, sent as a careless client would. */
  const callUnchecked = async (def: RouteDef, input: unknown) => {
    const result = await router.invoke(def.name, input, { transport: 'test', clientId: 't' })
    if (!result.ok) throw new AppError(result.error.code, result.error.message)
    return result.data
  }

  beforeEach(() => {
    world = createWorld()
    h = createHarness(world, {
      mcpServers: [
        {
          id: 'gh',
          name: 'GitHub',
          type: 'stdio',
          command: 'gh-mcp',
          args: [],
          env: { GITHUB_TOKEN: 'ghp_secret' },
          url: '',
          headers: {}
        }
      ]
    })
    router = new Router()
    registerAcpRoutes(router, { acp: h.acp })
  })

  afterEach(async () => {
    await h.close()
    world.close()
  })

  it('lists registry agents turned off and custom agents turned on', async () => {
    await h.addFakeAgent()
    const { agents } = (await call(acpList, {})) as {
      agents: { id: string; source: string; enabled: boolean }[]
    }
    expect(agents.find((a) => a.id === 'claude-acp')).toMatchObject({ source: 'registry', enabled: false })
    expect(agents.find((a) => a.id === 'fake')).toMatchObject({ source: 'custom', enabled: true })
    const enabled = await call(acpSetEnabled, { agentId: 'claude-acp', enabled: true })
    expect(enabled.agent).toMatchObject({ id: 'claude-acp', enabled: true, command: 'npx' })
    expect(
      h.events.some(
        (e) => e.name === acpAgentChanged.name && (e.payload as { agentId: string }).agentId === 'claude-acp'
      )
    ).toBe(true)
  })

  it('keeps secret env values in secret storage, shows them masked, and launches with them', async () => {
    const added = await call(acpAddAgent, {
      agent: {
        name: 'My Agent',
        command: process.execPath,
        args: ['-e', 'setInterval(() => {}, 1000)'],
        env: { ANTHROPIC_API_KEY: 'sk-live-123', MODE: 'fast' }
      }
    })
    expect(added.agent).toMatchObject({
      id: 'my-agent',
      env: { ANTHROPIC_API_KEY: MASKED_SECRET, MODE: 'fast' },
      secretKeys: { env: ['ANTHROPIC_API_KEY'], envOverrides: [] }
    })
    const stored = JSON.stringify(h.config.getDocument('acp.agents', (await import('zod')).z.unknown(), null))
    expect(stored).not.toContain('sk-live-123')
    expect(await h.platform.secrets.get('acp.my-agent.env.ANTHROPIC_API_KEY')).toBe('sk-live-123')
    for (const file of readdirSync(world.dataDir).filter((f) => f.startsWith('deepchat.db')))
      expect(readFileSync(join(world.dataDir, file)).includes('sk-live-123')).toBe(false)

    // Sending the mask back keeps the secret; a new value replaces it.
    await call(acpUpdateAgent, {
      agentId: 'my-agent',
      patch: { env: { ANTHROPIC_API_KEY: MASKED_SECRET } }
    })
    expect(await h.platform.secrets.get('acp.my-agent.env.ANTHROPIC_API_KEY')).toBe('sk-live-123')
    await call(acpRemoveAgent, { agentId: 'my-agent' })
    expect(await h.platform.secrets.get('acp.my-agent.env.ANTHROPIC_API_KEY')).toBeUndefined()
    await expect(call(acpRemoveAgent, { agentId: 'claude-acp' })).rejects.toMatchObject({
      code: 'acp_agent_not_found'
    })
  })

  it('starts the agent with its env, the user’s overrides on top, and PATH put in front', async () => {
    const agentId = await h.addFakeAgent()
    const bin = tempDir()
    await call(acpSetEnvOverrides, {
      agentId,
      env: { FAKE_GREETING: 'hello', PATH: bin, SESSION_TOKEN: 'tok' }
    })
    const view = h.acp.getAgent(agentId)
    expect(view.envOverrides).toEqual({ FAKE_GREETING: 'hello', PATH: bin, SESSION_TOKEN: MASKED_SECRET })
    const events = await collect(
      h.acp.prompt({
        chatSessionId: 'chat-1',
        agentId,
        workspaceDir: world.workspace,
        content: [
          {
            type: 'text',
            text: script(
              { env: 'FAKE_GREETING' },
              { env: 'SESSION_TOKEN' },
              { env: 'PATH' },
              { env: 'DEEPCHAT_HOST_RUN' }
            )
          }
        ],
        hooks: answering(() => 'reject').hooks
      })
    )
    const [greeting, token, path, mark] = saidText(events).split('env:').slice(1)
    expect(greeting).toBe('hello')
    expect(token).toBe('tok')
    expect(path.split(':')[0]).toBe(bin)
    expect(path.split(':').length).toBeGreaterThan(1)
    // The host's run mark lets the next start reap what a crashed host left.
    expect(mark).toMatch(/^[0-9a-f]{24}$/)
  })

  it('checks install state through the route', async () => {
    const agentId = await h.addFakeAgent()
    const { results } = (await call(acpCheckInstall, { agentId })) as {
      results: { agentId: string; install: { status: string } }[]
    }
    expect(results).toEqual([
      {
        agentId,
        install: expect.objectContaining({
          status: 'installed',
          launcher: 'command',
          resolvedPath: process.execPath
        })
      }
    ])
    await expect(call(acpCheckInstall, { agentId: 'nobody' })).rejects.toMatchObject({
      code: 'acp_agent_not_found'
    })
  })

  it('logs the protocol messages with sizes, methods on responses and secrets redacted', async () => {
    const agentId = await h.addFakeAgent()
    await collect(
      h.acp.prompt({
        chatSessionId: 'chat-1',
        agentId,
        workspaceDir: world.workspace,
        content: [{ type: 'text', text: 'hi' }],
        hooks: answering(() => 'reject').hooks
      })
    )
    const { entries } = (await call(acpProtocolLog, { agentId })) as {
      entries: { direction: string; kind: string; method?: string; bytes: number; summary: string }[]
    }
    const shape = entries.map((e) => `${e.direction} ${e.kind} ${e.method ?? ''}`)
    expect(shape.slice(0, 4)).toEqual([
      'out request initialize',
      'in response initialize',
      'out request session/new',
      'in response session/new'
    ])
    expect(shape).toContain('in notification session/update')
    expect(shape).toContain('in response session/prompt')
    expect(entries.every((e) => e.bytes > 0)).toBe(true)
    const sessionNew = entries[2].summary
    expect(sessionNew).toContain('GITHUB_TOKEN')
    expect(sessionNew).not.toContain('ghp_secret')
    const later = (await call(acpProtocolLog, { agentId, afterSeq: 3 })) as { entries: unknown[] }
    expect(later.entries).toHaveLength(entries.length - 3)
    // The renderer hears of new entries in batches.
    await until(() => h.events.some((e) => e.name === acpLogAppended.name), { what: 'a log event' })
  })

  it('rejects bad input with clear errors', async () => {
    await expect(callUnchecked(acpAddAgent, { agent: { name: '', command: 'x' } })).rejects.toMatchObject({
      code: 'invalid_input'
    })
    await expect(
      callUnchecked(acpSetEnvOverrides, { agentId: 'claude-acp', env: { 'BAD NAME': 'x' } })
    ).rejects.toMatchObject({ code: 'invalid_input' })
    await expect(
      collect(
        h.acp.prompt({
          chatSessionId: 'c',
          agentId: 'claude-acp',
          workspaceDir: 'relative/path',
          content: [{ type: 'text', text: 'x' }],
          hooks: answering(() => 'reject').hooks
        })
      )
    ).rejects.toMatchObject({ code: 'acp_invalid_input' })
    mkdirSync(join(world.root, 'w2'))
    await expect(
      collect(
        h.acp.prompt({
          chatSessionId: 'c',
          agentId: 'claude-acp',
          workspaceDir: join(world.root, 'w2'),
          content: [{ type: 'text', text: 'x' }],
          hooks: answering(() => 'reject').hooks
        })
      )
    ).rejects.toMatchObject({ code: 'acp_agent_disabled' })
  })
})
