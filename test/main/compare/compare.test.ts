import { describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { FORK_DISCARD, FORK_MERGE } from '@shared/types/tape'
import {
  compareDiscard,
  compareKeep,
  compareRespond,
  compareStart,
  compareStop
} from '@shared/contracts/routes/compare.routes'
import { compareUpdated } from '@shared/contracts/events/compare.events'
import type { CompareView } from '@shared/types/compare'
import {
  callsReply,
  call,
  eventsOf,
  textReply,
  toolCall,
  useLoopHarness,
  type LoopHarness
} from '../loop/helpers'
import { openAiBody, type OpenAiRequest } from '../../fixtures/llm/openAiRequest'
import type { FakeResponse, RecordedRequest } from '../../fixtures/llm/script'
import { userTexts, lastIsToolResult, tapeEvents } from '../subagents/helpers'
import { until } from '../../helpers/until'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters } from '../../../src/main/presenter'
import { useTempDirs } from '../helpers/tempDir'

const harness = useLoopHarness()
const tempDir = useTempDirs()
const MODELS = ['model-a', 'model-b', 'model-c']
const PROMPT = 'Write your note.'

const gitIn = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' }
  })

/** A repository with a commit, an uncommitted change and an untracked file. */
function makeRepo(dir: string): void {
  gitIn(dir, 'init', '-q', '-b', 'main')
  gitIn(dir, 'config', 'user.email', 't@example.com')
  gitIn(dir, 'config', 'user.name', 'T')
  writeFileSync(join(dir, 'README.md'), 'line 1\n')
  writeFileSync(join(dir, 'shared.txt'), 'base\n')
  gitIn(dir, 'add', '.')
  gitIn(dir, 'commit', '-q', '-m', 'start')
  writeFileSync(join(dir, 'README.md'), 'line 1\nuncommitted line\n')
  writeFileSync(join(dir, 'draft.txt'), 'untracked draft\n')
}

type ModelReply = (model: string, body: OpenAiRequest) => FakeResponse

/** Each compare model writes `<model>.txt` in its folder, then answers "Answer from <model>". */
const writesItsFile: ModelReply = (model, body) =>
  lastIsToolResult(body)
    ? {
        steps: [
          { type: 'text', text: [`Answer from ${model}.`] },
          { type: 'usage', promptTokens: 100 + model.length, completionTokens: 7 }
        ]
      }
    : callsReply(toolCall('w1', 'write', { path: `${model}.txt`, content: `by ${model}\n` }))

async function setup(reply: ModelReply = writesItsFile): Promise<{ h: LoopHarness; sessionId: string }> {
  const script = (request: RecordedRequest): FakeResponse => {
    const body = openAiBody(request.body)
    if (body.model === 'fake-model') return textReply('Chat answer.')
    return reply(body.model, body)
  }
  const h = await harness(script)
  await h.presenters.llmProviders.addProvider({
    id: 'multi',
    kind: 'openai',
    name: 'Multi',
    baseUrl: h.llm.baseUrl,
    apiKey: 'sk-test-0123456789abcd',
    models: [
      ...MODELS.map((id) => ({ id, name: id.toUpperCase() })),
      { id: 'model-off', name: 'Off', enabled: false }
    ],
    maxRetries: 0
  })
  makeRepo(h.workspace)
  const { sessionId } = await h.send('hello')
  await h.idle(sessionId)
  return { h, sessionId }
}

const models = (...ids: string[]) => ids.map((modelId) => ({ providerId: 'multi', modelId }))

async function settled(h: LoopHarness, compareId: string, statuses: string[]): Promise<CompareView> {
  let view: CompareView | undefined
  await until(
    () => {
      view = h.presenters.compare.get(compareId)
      return view.runs.every((r, i) => r.status === statuses[i])
    },
    { what: `runs are ${statuses.join(', ')}`, timeoutMs: 20_000 }
  )
  return view!
}

const runFolders = (h: LoopHarness) => {
  const scratch = join(h.dataDir, 'scratch')
  return existsSync(scratch) ? readdirSync(scratch).filter((n) => n.startsWith('compare-')) : []
}

const worktrees = (repo: string) =>
  gitIn(repo, 'worktree', 'list', '--porcelain')
    .split('\n')
    .filter((l) => l.startsWith('worktree '))

describe('compare runs across models', () => {
  it('runs three models in their own worktrees; keeping one applies only its changes and merges only its fork', async () => {
    const { h, sessionId } = await setup()
    const { compare } = await call(h, compareStart, { sessionId, prompt: PROMPT, models: models(...MODELS) })
    expect(compare.runs.map((r) => r.modelName)).toEqual(['MODEL-A', 'MODEL-B', 'MODEL-C'])
    const view = await settled(h, compare.compareId, ['completed', 'completed', 'completed'])

    const sessions = view.runs.map((r) => h.presenters.sessions.require(r.childSessionId!))
    expect(new Set(sessions.map((s) => s.workspaceDir)).size).toBe(3)
    for (const [i, run] of view.runs.entries()) {
      const dir = sessions[i].workspaceDir
      expect(run).toMatchObject({
        folder: 'worktree',
        answer: `Answer from ${MODELS[i]}.`,
        files: [{ path: `${MODELS[i]}.txt`, status: 'added', added: 1, removed: 0 }],
        toolCalls: [{ name: 'write', status: 'success' }]
      })
      expect(run.diff).toContain(`+by ${MODELS[i]}`)
      expect(run.usage).toEqual({ inputTokens: 107, outputTokens: 7 })
      expect(run.cost).toBeNull()
      expect(run.endedAt).toBeGreaterThanOrEqual(run.startedAt)
      // The run started from the folder as the user left it, uncommitted work included.
      expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe('line 1\nuncommitted line\n')
      expect(readFileSync(join(dir, 'draft.txt'), 'utf8')).toBe('untracked draft\n')
      // Only its own file: the runs never collide.
      for (const other of MODELS) expect(existsSync(join(dir, `${other}.txt`))).toBe(other === MODELS[i])
      expect(h.presenters.sessions.require(sessions[i].id).modelId).toBe(MODELS[i])
    }
    expect(worktrees(h.workspace)).toHaveLength(4)
    // Nothing reached the chat's folder yet.
    for (const m of MODELS) expect(existsSync(join(h.workspace, `${m}.txt`))).toBe(false)

    const kept = await call(h, compareKeep, { compareId: compare.compareId, index: 1 })
    expect(kept.compare).toMatchObject({ status: 'kept', keptIndex: 1 })
    expect(readFileSync(join(h.workspace, 'model-b.txt'), 'utf8')).toBe('by model-b\n')
    expect(existsSync(join(h.workspace, 'model-a.txt'))).toBe(false)
    expect(existsSync(join(h.workspace, 'model-c.txt'))).toBe(false)
    expect(readFileSync(join(h.workspace, 'README.md'), 'utf8')).toBe('line 1\nuncommitted line\n')
    // Every worktree removed and pruned, every folder gone.
    expect(worktrees(h.workspace)).toHaveLength(1)
    for (const s of sessions) expect(existsSync(s.workspaceDir)).toBe(false)

    const merges = tapeEvents(h, sessionId, FORK_MERGE)
    expect(merges).toHaveLength(1)
    expect(merges[0].payload.data).toMatchObject({ forkTapeId: sessions[1].tapeId })
    const discards = tapeEvents(h, sessionId, FORK_DISCARD)
    expect(discards.map((d) => d.payload.data.forkTapeId).sort()).toEqual(
      [sessions[0].tapeId, sessions[2].tapeId].sort()
    )

    // The chat continues from the kept answer; the discarded runs never reach its context.
    const before = h.bodies().length
    await h.send('And now?', { sessionId })
    await h.idle(sessionId)
    const next = h.bodies()[before]
    expect(next.model).toBe('fake-model')
    const wire = JSON.stringify(next.messages)
    expect(userTexts(next)).toContain(PROMPT)
    expect(wire).toContain('Answer from model-b.')
    expect(wire).not.toContain('Answer from model-a.')
    expect(wire).not.toContain('Answer from model-c.')
    expect(wire).not.toContain('by model-a')
    const shown = h.presenters.agentRuntime.getMessages(sessionId)
    expect(JSON.stringify(shown)).toContain('Answer from model-b.')
  })

  it("gives each run the chat so far: the earlier turns are in every model's first request", async () => {
    const { h, sessionId } = await setup()
    const { compare } = await call(h, compareStart, { sessionId, prompt: PROMPT, models: models(...MODELS) })
    await settled(h, compare.compareId, ['completed', 'completed', 'completed'])
    for (const model of MODELS) {
      const first = h.bodies().find((b) => b.model === model)!
      expect(userTexts(first)).toEqual(['hello', PROMPT])
      expect(JSON.stringify(first.messages)).toContain('Chat answer.')
    }
  })

  it('stops one run while the others finish, and the stopped one cannot be kept', async () => {
    const { h, sessionId } = await setup((model, body) =>
      model === 'model-b'
        ? { steps: [{ type: 'text', text: 'thinking…' }, { type: 'stall' }] }
        : writesItsFile(model, body)
    )
    const { compare } = await call(h, compareStart, { sessionId, prompt: PROMPT, models: models(...MODELS) })
    await until(() => h.presenters.compare.get(compare.compareId).runs[1].status === 'running', {
      timeoutMs: 10_000
    })
    await h.llm.waitForRequests(2 + 4) // the chat's turn, then model-b's stall and the others' rounds
    const stopped = await call(h, compareStop, { compareId: compare.compareId, index: 1 })
    expect(stopped.compare.runs[1].status).toBe('cancelled')
    const view = await settled(h, compare.compareId, ['completed', 'cancelled', 'completed'])
    expect(view.runs[0].answer).toBe('Answer from model-a.')
    expect(view.runs[2].answer).toBe('Answer from model-c.')
    await expect(call(h, compareKeep, { compareId: compare.compareId, index: 1 })).rejects.toMatchObject({
      code: 'invalid_input'
    })
    const updates = eventsOf(h, compareUpdated).filter((e) => e.compare.compareId === compare.compareId)
    expect(updates.length).toBeGreaterThan(3)
    await call(h, compareDiscard, { compareId: compare.compareId })
    expect(worktrees(h.workspace)).toHaveLength(1)
    expect(tapeEvents(h, sessionId, FORK_MERGE)).toHaveLength(0)
    expect(tapeEvents(h, sessionId, FORK_DISCARD)).toHaveLength(3)
  })

  it('refuses to keep a run when the chat folder changed in a conflicting way, and loses nothing', async () => {
    const { h, sessionId } = await setup((model, body) =>
      lastIsToolResult(body)
        ? textReply(`Answer from ${model}.`)
        : callsReply(toolCall('w1', 'write', { path: 'shared.txt', content: `base\n${model} line\n` }))
    )
    const { compare } = await call(h, compareStart, {
      sessionId,
      prompt: PROMPT,
      models: models('model-a', 'model-b')
    })
    await settled(h, compare.compareId, ['completed', 'completed'])
    // Meanwhile the user edits the same lines in the chat's folder.
    writeFileSync(join(h.workspace, 'shared.txt'), 'changed by the user\n')
    await expect(call(h, compareKeep, { compareId: compare.compareId, index: 0 })).rejects.toMatchObject({
      code: 'compare_conflict'
    })
    expect(readFileSync(join(h.workspace, 'shared.txt'), 'utf8')).toBe('changed by the user\n')
    const view = h.presenters.compare.get(compare.compareId)
    expect(view.status).toBe('open')
    // Both runs and their folders are still there; nothing merged or discarded.
    for (const run of view.runs) {
      const dir = h.presenters.sessions.require(run.childSessionId!).workspaceDir
      expect(readFileSync(join(dir, 'shared.txt'), 'utf8')).toBe(`base\n${run.modelId} line\n`)
    }
    expect(tapeEvents(h, sessionId, FORK_MERGE)).toHaveLength(0)
    expect(tapeEvents(h, sessionId, FORK_DISCARD)).toHaveLength(0)
    // Put back as it was, the keep goes through.
    writeFileSync(join(h.workspace, 'shared.txt'), 'base\n')
    await call(h, compareKeep, { compareId: compare.compareId, index: 0 })
    expect(readFileSync(join(h.workspace, 'shared.txt'), 'utf8')).toBe('base\nmodel-a line\n')
  })

  it('refuses bad requests with their reason and starts nothing', async () => {
    const { h, sessionId } = await setup()
    const refused = async (input: unknown) =>
      expect(call(h, compareStart, input as never)).rejects.toMatchObject({ code: 'invalid_input' })
    await refused({ sessionId, prompt: PROMPT, models: models('model-a') })
    await refused({
      sessionId,
      prompt: PROMPT,
      models: models('model-a', 'model-b', 'model-c', 'fake-model', 'x')
    })
    await refused({ sessionId, prompt: PROMPT, models: models('model-a', 'model-a') })
    await refused({ sessionId, prompt: PROMPT, models: models('model-a', 'model-off') })
    await refused({
      sessionId,
      prompt: PROMPT,
      models: [...models('model-a'), { providerId: 'nope', modelId: 'x' }]
    })
    await refused({ sessionId, prompt: '   ', models: models('model-a', 'model-b') })
    expect(h.presenters.compare.list(sessionId)).toEqual([])
    expect(worktrees(h.workspace)).toHaveLength(1)
  })

  it('works on scratch copies when the chat folder is not a git repository', async () => {
    const { h, sessionId } = await setup()
    const plain = tempDir()
    writeFileSync(join(plain, 'notes.md'), 'plain folder\n')
    h.presenters.sessions.updateSettings(sessionId, { workspaceDir: plain })
    const { compare } = await call(h, compareStart, {
      sessionId,
      prompt: PROMPT,
      models: models('model-a', 'model-c')
    })
    const view = await settled(h, compare.compareId, ['completed', 'completed'])
    expect(view.runs.map((r) => r.folder)).toEqual(['copy', 'copy'])
    expect(view.runs[0].folderNote).toMatch(/not in a git repository/)
    await call(h, compareKeep, { compareId: compare.compareId, index: 1 })
    expect(readFileSync(join(plain, 'model-c.txt'), 'utf8')).toBe('by model-c\n')
    expect(existsSync(join(plain, 'model-a.txt'))).toBe(false)
    expect(readdirSync(plain).sort()).toEqual(['model-c.txt', 'notes.md'])
  })
})

describe('compare folders', () => {
  it('gives each run the same place inside its worktree when the chat folder is a subfolder of the repository', async () => {
    const { h, sessionId } = await setup()
    const sub = join(h.workspace, 'packages', 'app')
    mkdirSync(sub, { recursive: true })
    writeFileSync(join(sub, 'index.js'), 'export {}\n')
    h.presenters.sessions.updateSettings(sessionId, { workspaceDir: sub })
    const { compare } = await call(h, compareStart, {
      sessionId,
      prompt: PROMPT,
      models: models('model-a', 'model-b')
    })
    const view = await settled(h, compare.compareId, ['completed', 'completed'])
    for (const run of view.runs) {
      const dir = h.presenters.sessions.require(run.childSessionId!).workspaceDir
      expect(dir.endsWith(join('packages', 'app'))).toBe(true)
      // The subfolder's untracked file came along.
      expect(readFileSync(join(dir, 'index.js'), 'utf8')).toBe('export {}\n')
      expect(run.files.map((f) => f.path)).toEqual([`${run.modelId}.txt`])
    }
    await call(h, compareKeep, { compareId: compare.compareId, index: 0 })
    expect(readFileSync(join(sub, 'model-a.txt'), 'utf8')).toBe('by model-a\n')
    expect(existsSync(join(h.workspace, 'model-a.txt'))).toBe(false)
  })

  it('refuses to copy a folder that is not a git repository past the entry cap, and says so on the run', async () => {
    const { h, sessionId } = await setup()
    const big = tempDir()
    for (let d = 0; d < 21; d++) {
      mkdirSync(join(big, `d${d}`))
      for (let f = 0; f < 1000; f++) writeFileSync(join(big, `d${d}`, `f${f}`), '')
    }
    h.presenters.sessions.updateSettings(sessionId, { workspaceDir: big })
    const { compare } = await call(h, compareStart, {
      sessionId,
      prompt: PROMPT,
      models: models('model-a', 'model-b')
    })
    const view = await settled(h, compare.compareId, ['error', 'error'])
    expect(view.runs[0].error).toMatch(/more than 20000 entries.*Make it a git repository/s)
    expect(view.runs.every((r) => r.childSessionId === null)).toBe(true)
    expect(runFolders(h)).toEqual([])
    await call(h, compareDiscard, { compareId: compare.compareId })
  })
})

describe('compare permissions', () => {
  it('a run that must ask waits in its column, named by its model, and resumes when answered there', async () => {
    const outside = tempDir()
    const { h, sessionId } = await setup((model, body) =>
      lastIsToolResult(body)
        ? textReply(`Answer from ${model}.`)
        : model === 'model-a'
          ? callsReply(toolCall('w1', 'write', { path: join(outside, 'a.txt'), content: 'outside' }))
          : callsReply(toolCall('w1', 'write', { path: `${model}.txt`, content: `by ${model}\n` }))
    )
    const { compare } = await call(h, compareStart, {
      sessionId,
      prompt: PROMPT,
      models: models('model-a', 'model-b')
    })
    await until(() => h.presenters.compare.get(compare.compareId).runs[0].status === 'waiting', {
      timeoutMs: 15_000
    })
    const waiting = h.presenters.compare.get(compare.compareId).runs[0]
    expect(waiting.modelName).toBe('MODEL-A')
    expect(waiting.interactions).toMatchObject([{ kind: 'permission', status: 'pending' }])
    // The other run is not held up by it.
    await settled(h, compare.compareId, ['waiting', 'completed'])
    expect(existsSync(join(outside, 'a.txt'))).toBe(false)
    const [interaction] = waiting.interactions
    const answer = { kind: 'permission', decision: 'allow_once' }
    // Another run's index cannot answer it.
    await expect(
      call(h, compareRespond, {
        compareId: compare.compareId,
        index: 1,
        messageId: interaction.messageId,
        interactionId: interaction.id,
        response: answer
      })
    ).rejects.toBeTruthy()
    await call(h, compareRespond, {
      compareId: compare.compareId,
      index: 0,
      messageId: interaction.messageId,
      interactionId: interaction.id,
      response: answer
    })
    await settled(h, compare.compareId, ['completed', 'completed'])
    expect(readFileSync(join(outside, 'a.txt'), 'utf8')).toBe('outside')
  })
})

describe('compare leftovers', () => {
  it('an app closed mid-comparison discards the runs’ forks and removes their worktrees at the next start', async () => {
    const { h, sessionId } = await setup(() => ({
      steps: [{ type: 'text', text: 'working' }, { type: 'stall' }]
    }))
    const { compare } = await call(h, compareStart, {
      sessionId,
      prompt: PROMPT,
      models: models('model-a', 'model-b')
    })
    await settled(h, compare.compareId, ['running', 'running'])
    expect(worktrees(h.workspace)).toHaveLength(3)
    await h.restart()
    await h.presenters.compare.ready
    expect(worktrees(h.workspace)).toHaveLength(1)
    expect(runFolders(h)).toEqual([])
    expect(tapeEvents(h, sessionId, FORK_DISCARD)).toHaveLength(2)
    expect(tapeEvents(h, sessionId, FORK_MERGE)).toHaveLength(0)
    expect(h.presenters.compare.list(sessionId)).toEqual([])
  })

  it('removes the worktrees and copies a killed host left behind when the app starts', async () => {
    const dataDir = tempDir()
    const repo = tempDir()
    makeRepo(repo)
    const scratch = join(dataDir, 'scratch')
    mkdirSync(scratch, { recursive: true })
    const leftover = join(scratch, 'compare-dead0001-0')
    gitIn(repo, 'worktree', 'add', '--detach', leftover, 'HEAD')
    const copy = join(scratch, 'compare-dead0001-1')
    mkdirSync(copy)
    writeFileSync(join(copy, 'x.txt'), 'x')
    const chatScratch = join(scratch, 'some-chat')
    mkdirSync(chatScratch)
    expect(worktrees(repo)).toHaveLength(2)

    const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
    try {
      await presenters.compare.ready
      expect(existsSync(leftover)).toBe(false)
      expect(existsSync(copy)).toBe(false)
      expect(existsSync(chatScratch)).toBe(true) // a chat's own scratch folder is not a leftover
      expect(worktrees(repo)).toHaveLength(1)
    } finally {
      await presenters.dispose()
    }
  })
})
