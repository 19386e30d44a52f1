import { existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'
import type { AcpPermissionAnswer, AcpPermissionAsk } from '@shared/types/acp'
import type { PermissionMode } from '@shared/types/permission'
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

type Hooks = ReturnType<typeof answering>['hooks']

async function run(steps: FakeStep[], hooks: Hooks, permissionMode: PermissionMode = 'default') {
  return collect(
    h.acp.prompt({
      chatSessionId: 'chat-1',
      agentId,
      workspaceDir: world.workspace,
      content: [{ type: 'text', text: script(...steps) }],
      hooks,
      permissionMode
    })
  )
}

const boundaryAsks = (asks: AcpPermissionAsk[]) =>
  asks.filter((a): a is Extract<AcpPermissionAsk, { kind: 'boundary' }> => a.kind === 'boundary')

/** An answer the test gives later, with a hook to act while the agent waits for it. */
function deferredAnswer() {
  let answer!: (value: AcpPermissionAnswer) => void
  let asked!: () => void
  const askedPromise = new Promise<void>((resolve) => (asked = resolve))
  const answers = answering(() => {
    asked()
    return new Promise<AcpPermissionAnswer>((resolve) => (answer = resolve))
  })
  return { answers, asked: askedPromise, answer: (value: AcpPermissionAnswer) => answer(value) }
}

describe('files the agent reads through us', () => {
  it('reads inside the workspace without asking, by line window', async () => {
    writeFileSync(join(world.workspace, 'notes.txt'), 'one\ntwo\nthree\nfour\n')
    const answers = answering(() => 'reject')
    const events = await run(
      [{ read: { path: join(world.workspace, 'notes.txt'), line: 2, limit: 2 } }],
      answers.hooks
    )
    expect(saidText(events)).toBe('read:ok:two\nthree')
    expect(answers.asks).toEqual([])
  })

  it('asks before reading outside the workspace, and reads nothing until allowed', async () => {
    const secret = join(world.outside, 'diary.txt')
    writeFileSync(secret, 'before the answer')
    const pending = deferredAnswer()
    const turn = run([{ read: { path: secret } }], pending.answers.hooks)
    await pending.asked
    // Changed while the user decides: the agent must get what is there after the answer.
    writeFileSync(secret, 'after the answer')
    pending.answer('allow_once')
    expect(saidText(await turn)).toBe('read:ok:after the answer')
    const [ask] = boundaryAsks(pending.answers.asks)
    expect(ask).toMatchObject({
      method: 'fs/read_text_file',
      request: {
        type: 'read',
        paths: [secret],
        risk: 'medium',
        server: `acp:${agentId}`,
        sessionId: 'chat-1'
      }
    })
  })

  it('gives the agent a permission error when the user denies a read', async () => {
    writeFileSync(join(world.outside, 'diary.txt'), 'private')
    const events = await run(
      [{ read: { path: join(world.outside, 'diary.txt') } }],
      answering(() => 'reject').hooks
    )
    expect(saidText(events)).toMatch(/^read:error:-32003:The user denied the request/)
    expect(saidText(events)).not.toContain('private')
  })

  it('refuses the secrets file without asking, even when the workspace holds it', async () => {
    const answers = answering(() => 'allow_once')
    const events = await collect(
      h.acp.prompt({
        chatSessionId: 'chat-1',
        agentId,
        workspaceDir: world.root,
        content: [{ type: 'text', text: script({ read: { path: join(world.dataDir, 'secrets.json') } }) }],
        hooks: answers.hooks
      })
    )
    expect(saidText(events)).toMatch(/^read:error:-32003:.*secrets file/)
    expect(answers.asks).toEqual([])
  })

  it('lets a deny rule refuse a read without asking', async () => {
    writeFileSync(join(world.outside, 'diary.txt'), 'private')
    h.permissions.addRule({ kind: 'read', pattern: world.outside, effect: 'deny' })
    const answers = answering(() => 'allow_once')
    const events = await run([{ read: { path: join(world.outside, 'diary.txt') } }], answers.hooks)
    expect(saidText(events)).toMatch(/^read:error:-32003:Denied by rule read/)
    expect(answers.asks).toEqual([])
  })
})

describe('files the agent writes through us', () => {
  it('writes inside the workspace unasked and records what the file held before', async () => {
    const file = join(world.workspace, 'src', 'a.txt')
    mkdirSync(join(world.workspace, 'src'))
    writeFileSync(file, 'old text')
    const answers = answering(() => 'reject')
    const events = await run(
      [
        { tool: { id: 'e-1', title: 'Edit a.txt', kind: 'edit', locations: [{ path: file }] } },
        { write: { path: file, content: 'new text' } },
        { write: { path: join(world.workspace, 'new', 'b.txt'), content: 'fresh' } }
      ],
      answers.hooks
    )
    expect(saidText(events)).toBe('write:okwrite:ok')
    expect(readFileSync(file, 'utf8')).toBe('new text')
    expect(readFileSync(join(world.workspace, 'new', 'b.txt'), 'utf8')).toBe('fresh')
    expect(answers.asks).toEqual([])
    expect(answers.snapshots).toEqual([
      { chatSessionId: 'chat-1', agentId, toolCallId: 'e-1', path: file, previousContent: 'old text' },
      {
        chatSessionId: 'chat-1',
        agentId,
        toolCallId: null,
        path: join(world.workspace, 'new', 'b.txt'),
        previousContent: null
      }
    ])
  })

  it('writes outside the workspace only after the user allows it', async () => {
    const target = join(world.outside, 'report.md')
    const pending = deferredAnswer()
    const turn = run([{ write: { path: target, content: 'report' } }], pending.answers.hooks)
    await pending.asked
    expect(existsSync(target)).toBe(false)
    pending.answer('allow_once')
    expect(saidText(await turn)).toBe('write:ok')
    expect(readFileSync(target, 'utf8')).toBe('report')
    expect(boundaryAsks(pending.answers.asks)[0]).toMatchObject({
      method: 'fs/write_text_file',
      request: { type: 'write', risk: 'high', paths: [target] }
    })
  })

  it('does not write through a folder swapped for a link while the user decided', async () => {
    const approvedDir = join(world.outside, 'reports')
    const elsewhere = join(world.root, 'elsewhere')
    mkdirSync(approvedDir)
    mkdirSync(elsewhere)
    const pending = deferredAnswer()
    const turn = run([{ write: { path: join(approvedDir, 'r.md'), content: 'x' } }], pending.answers.hooks)
    await pending.asked
    renameSync(approvedDir, join(world.outside, 'moved'))
    symlinkSync(elsewhere, approvedDir)
    pending.answer('allow_once')
    expect(saidText(await turn)).toMatch(/^write:error:-32003:.*changed after its permission check/)
    expect(existsSync(join(elsewhere, 'r.md'))).toBe(false)
  })

  it('asks before writing a protected entry of the workspace', async () => {
    mkdirSync(join(world.workspace, '.git'))
    const answers = answering(() => 'reject')
    const events = await run(
      [{ write: { path: join(world.workspace, '.git', 'config'), content: 'x' } }],
      answers.hooks
    )
    expect(saidText(events)).toMatch(/^write:error:-32003:The user denied/)
    expect(boundaryAsks(answers.asks)[0].request).toMatchObject({ type: 'write', risk: 'high' })
    expect(existsSync(join(world.workspace, '.git', 'config'))).toBe(false)
  })

  it('refuses writing the secrets file whatever the answer would be', async () => {
    const answers = answering(() => 'allow_once')
    const events = await run(
      [{ write: { path: join(world.dataDir, 'secrets.json'), content: '{}' } }],
      answers.hooks
    )
    expect(saidText(events)).toMatch(/^write:error:-32003:.*secrets file/)
    expect(answers.asks).toEqual([])
  })
})

describe('terminals the agent runs through us', () => {
  it.skipIf(withoutBwrap)('runs a read-only command unasked, in the sandbox', NEEDS_BWRAP, async () => {
    writeFileSync(join(world.workspace, 'notes.txt'), 'sandboxed read\n')
    const answers = answering(() => 'reject')
    const events = await run(
      [
        { tool: { id: 't-1', title: 'cat', kind: 'execute' } },
        { terminal: { command: 'cat', args: ['notes.txt'], toolCallId: 't-1' } }
      ],
      answers.hooks
    )
    expect(saidText(events)).toBe('terminal:exit=0:truncated=false:sandboxed read\n')
    expect(answers.asks).toEqual([])
    const terminal = events.flatMap((e) => (e.type === 'tool_call' ? e.call.content : [])).at(-1)
    expect(terminal).toMatchObject({ type: 'terminal', command: 'cat notes.txt', sandboxed: true })
  })

  it.skipIf(withoutBwrap)(
    'contains what runs unasked: a script that writes outside cannot, the sandbox stops it',
    NEEDS_BWRAP,
    async () => {
      // In `sandboxed` mode an interpreter runs unasked inside the OS sandbox; the classifier cannot
      // see the path inside the script, the sandbox stops the write (read-only, or a private /tmp).
      writeFileSync(
        join(world.workspace, 'escape.js'),
        `require('fs').writeFileSync(${JSON.stringify(join(world.outside, 'escaped.txt'))}, 'x')`
      )
      const answers = answering(() => 'allow_once')
      const events = await run(
        [{ terminal: { command: 'node escape.js; echo exit=$?' } }],
        answers.hooks,
        'sandboxed'
      )
      expect(answers.asks).toEqual([])
      expect(saidText(events)).toMatch(/(EROFS|ENOENT)[\s\S]*exit=1/)
      expect(existsSync(join(world.outside, 'escaped.txt'))).toBe(false)
    }
  )

  it('asks before a command that writes, and runs it on the host once allowed', async () => {
    const answers = answering(() => 'allow_once')
    const events = await run(
      [
        { tool: { id: 't-2', title: 'write', kind: 'execute' } },
        { terminal: { command: 'echo hi > out.txt', toolCallId: 't-2' } }
      ],
      answers.hooks
    )
    expect(saidText(events)).toBe('terminal:exit=0:truncated=false:')
    expect(readFileSync(join(world.workspace, 'out.txt'), 'utf8')).toBe('hi\n')
    const [ask] = boundaryAsks(answers.asks)
    expect(ask).toMatchObject({
      method: 'terminal/create',
      request: { type: 'command', command: 'echo hi > out.txt', cwd: world.workspace }
    })
    const terminal = events.flatMap((e) => (e.type === 'tool_call' ? e.call.content : [])).at(-1)
    expect(terminal).toMatchObject({ type: 'terminal', sandboxed: false })
  })

  it('does not run a command the user denied', async () => {
    const events = await run(
      [{ terminal: { command: 'echo hi > out.txt' } }],
      answering(() => 'reject').hooks
    )
    expect(saidText(events)).toMatch(/^terminal:error:-32003:The user denied/)
    expect(existsSync(join(world.workspace, 'out.txt'))).toBe(false)
  })

  it('keeps only the last outputByteLimit bytes of the output', async () => {
    const events = await run(
      [{ terminal: { command: 'seq 1 2000', outputByteLimit: 20 } }],
      answering(() => 'reject').hooks
    )
    const said = saidText(events)
    expect(said).toMatch(/^terminal:exit=0:truncated=true:/)
    const output = said.replace(/^terminal:exit=0:truncated=true:/, '')
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(20)
    expect(output.endsWith('1999\n2000\n')).toBe(true)
  })
})
