import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AcpPermissionAnswer, AcpPermissionAsk, AcpTurnEvent } from '@shared/types/acp'
import {
  startFakeLlm,
  type FakeLlm,
  type FakeResponse,
  type RecordedRequest
} from '../../fixtures/llm/fakeLlm'
import {
  answering,
  collect,
  createHarness,
  createWorld,
  saidText,
  type AcpHarness,
  type AcpWorld
} from './harness'

/**
 * The real Claude Code agent (`@zed-industries/claude-code-acp`, which bundles the Claude CLI)
 * against our fake Anthropic Messages server: its Read arrives as `fs/read_text_file`, and its
 * Write asks our permission callback and lands only after the answer.
 */
const require = createRequire(import.meta.url)
const MARKER = 'PLEASE-EDIT'

function agentEntry(): { entry?: string; reason?: string } {
  let entry: string
  try {
    entry = join(dirname(require.resolve('@zed-industries/claude-code-acp/package.json')), 'dist', 'index.js')
  } catch {
    return { reason: '@zed-industries/claude-code-acp is not installed (npm install)' }
  }
  if (!existsSync(entry)) return { reason: `${entry} is missing` }
  try {
    const sdk = dirname(require.resolve('@anthropic-ai/claude-agent-sdk/package.json'))
    if (!existsSync(join(sdk, 'cli.js')))
      return { reason: 'the bundled Claude CLI (claude-agent-sdk/cli.js) is missing' }
  } catch {
    return { reason: '@anthropic-ai/claude-agent-sdk (the bundled Claude CLI) is not installed' }
  }
  return { entry }
}

const { entry, reason } = agentEntry()
if (reason) console.warn(`claude-code-acp test skipped: ${reason}`)

/** Reads notes.txt, then writes out.txt, then answers; side requests (titles, quota) get a short text. */
function claudeScript(workspace: string) {
  return (request: RecordedRequest): FakeResponse => {
    const body = request.body as { messages?: unknown[] } | undefined
    const messages = JSON.stringify(body?.messages ?? [])
    if (!messages.includes(MARKER)) return { steps: [{ type: 'text', text: 'ok' }] }
    const last = JSON.stringify(body?.messages?.at(-1) ?? '')
    if (last.includes('tool_result') && last.includes('toolu_write'))
      return { steps: [{ type: 'text', text: 'All done.' }] }
    if (last.includes('tool_result'))
      return {
        steps: [
          {
            type: 'tool_calls',
            calls: [
              {
                id: 'toolu_write',
                name: 'mcp__acp__Write',
                argumentChunks: [
                  JSON.stringify({ file_path: join(workspace, 'out.txt'), content: 'written by claude\n' })
                ]
              }
            ]
          }
        ]
      }
    return {
      steps: [
        {
          type: 'tool_calls',
          calls: [
            {
              id: 'toolu_read',
              name: 'mcp__acp__Read',
              argumentChunks: [JSON.stringify({ file_path: join(workspace, 'notes.txt') })]
            }
          ]
        }
      ]
    }
  }
}

describe('the real Claude Code agent (claude-code-acp)', () => {
  let world: AcpWorld
  let h: AcpHarness
  let llm: FakeLlm

  beforeAll(async () => {
    if (reason) return
    world = createWorld()
    llm = await startFakeLlm({ kind: 'anthropic', script: claudeScript(world.workspace) })
    h = createHarness(world)
    const home = join(world.root, 'claude-home')
    mkdirSync(home)
    await h.acp.addCustomAgent({
      id: 'claude',
      name: 'Claude Code',
      command: process.execPath,
      args: [entry!],
      env: {
        ANTHROPIC_BASE_URL: llm.origin,
        ANTHROPIC_API_KEY: 'sk-test',
        // Nothing of the real user's Claude config is read or written.
        HOME: home,
        CLAUDE_CONFIG_DIR: join(home, '.claude'),
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        // Claude Code refuses to run as root unless told it is in a sandbox.
        ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {})
      }
    })
  })

  afterAll(async () => {
    if (reason) return
    await h.close()
    await llm.close()
    world.close()
  })

  it.skipIf(reason)(
    'reads through fs/read_text_file and writes only after our permission callback allows it',
    async () => {
      writeFileSync(join(world.workspace, 'notes.txt'), 'hello notes\n')
      const out = join(world.workspace, 'out.txt')
      let writeExistedWhenAsked: boolean | undefined
      let readBeforeAsk: boolean | undefined
      const answers = answering((ask: AcpPermissionAsk): AcpPermissionAnswer => {
        writeExistedWhenAsked = existsSync(out)
        readBeforeAsk = h.acp
          .protocolLogOf('claude')
          .some((e) => e.method === 'fs/read_text_file' && e.kind === 'request')
        return ask.kind === 'agent_tool' && ask.toolCall.title.includes('Write') ? 'allow_once' : 'reject'
      })
      const events: AcpTurnEvent[] = await collect(
        h.acp.prompt({
          chatSessionId: 'chat-claude',
          agentId: 'claude',
          workspaceDir: world.workspace,
          content: [{ type: 'text', text: `${MARKER}: copy notes.txt` }],
          hooks: answers.hooks
        })
      )
      expect(events.at(-1)).toEqual({ type: 'stop', stopReason: 'end_turn' })
      expect(saidText(events)).toContain('All done.')

      const log = h.acp.protocolLogOf('claude')
      const reads = log.filter((e) => e.method === 'fs/read_text_file' && e.kind === 'request')
      expect(reads).toHaveLength(1)
      expect(reads[0].summary).toContain(join(world.workspace, 'notes.txt'))
      expect(readBeforeAsk).toBe(true)

      // The write asked first (nothing on disk then) and landed after the answer.
      expect(answers.asks).toHaveLength(1)
      expect(answers.asks[0]).toMatchObject({ kind: 'agent_tool', agentId: 'claude' })
      expect(writeExistedWhenAsked).toBe(false)
      expect(log.some((e) => e.method === 'fs/write_text_file' && e.kind === 'request')).toBe(true)
      expect(readFileSync(out, 'utf8')).toBe('written by claude\n')
      expect(answers.snapshots).toEqual([expect.objectContaining({ path: out, previousContent: null })])

      const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []))
      expect(calls.filter((c) => c.id === 'toolu_read').at(-1)).toMatchObject({
        kind: 'read',
        status: 'completed'
      })
      expect(calls.filter((c) => c.id === 'toolu_write').at(-1)).toMatchObject({
        kind: 'edit',
        status: 'completed'
      })
      expect(
        calls.some((c) =>
          c.content.some(
            (item) => item.type === 'diff' && item.path === out && item.newText === 'written by claude\n'
          )
        )
      ).toBe(true)
    },
    120_000
  )
})
