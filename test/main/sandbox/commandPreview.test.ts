// Command previews with real bubblewrap: the command runs on a copy of the workspace without
// network, the card's description is exactly what changed, the workspace stays as it was until
// approval, approval applies the changes, and a workspace changed in between runs for real.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { CommandPreview, PreviewFileChange } from '@shared/types/commandPreview'
import { CommandPreviews, type PreviewTarget } from '../../../src/main/presenter/commandPreview'
import { walkTree } from '../../../src/main/presenter/commandPreview/workspaceTree'
import { applyChanges, PartlyAppliedError } from '../../../src/main/presenter/commandPreview/changes'
import { CommandPermissionService } from '../../../src/main/presenter/permission/commandPermissionService'
import { FilePermissionService } from '../../../src/main/presenter/permission/filePermissionService'
import { PermissionPresenter, PermissionRuleStore } from '../../../src/main/presenter/permission'
import { Sandbox } from '../../../src/main/presenter/sandbox'
import { SqlitePresenter } from '../../../src/main/presenter/sqlitePresenter'
import { ToolPresenter } from '../../../src/main/presenter/toolPresenter'
import { AgentToolManager } from '../../../src/main/presenter/toolPresenter/agentTools/agentToolManager'
import { BackgroundProcessManager } from '../../../src/main/presenter/toolPresenter/agentTools/processManager'
import { CommandPermissionRequiredError } from '../../../src/main/presenter/permission'
import { emptyMcp, RecordingRuntime } from '../tools/helpers'
import { useTempDirs } from '../helpers/tempDir'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'
import { makeWorld, onLinux, useVisibleTempDirs, type World } from './harness'

const tempDir = useTempDirs()
const visibleTempDir = useVisibleTempDirs()
const servers: Server[] = []
const previewers: CommandPreviews[] = []
afterEach(async () => {
  for (const p of previewers.splice(0)) p.dispose()
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))))
})

type Done = Extract<CommandPreview, { status: 'done' }>

function setup(limits: Partial<Done['limits']> = {}) {
  const world = makeWorld(realpathSync(tempDir()))
  const previews = new CommandPreviews({
    root: join(world.appData.dataDir, 'command-previews'),
    home: world.home,
    appData: world.appData,
    baseEnv: async () => ({ ...process.env }),
    limits
  })
  previewers.push(previews)
  let calls = 0
  const target = (command: string): PreviewTarget => ({
    sessionId: 's1',
    toolCallId: `call_${++calls}`,
    command,
    cwd: world.project,
    workspaceDir: world.project,
    tool: 'exec'
  })
  return { world, previews, target }
}

async function previewDone(previews: CommandPreviews, target: PreviewTarget): Promise<Done> {
  const preview = await previews.preview(target)
  if (preview.status !== 'done') throw new Error(`no preview: ${JSON.stringify(preview)}`)
  return preview
}

/** What a tree holds, by path: type and content, to prove a workspace untouched. */
function contentOf(root: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [path, entry] of walkTree(root))
    out[path] =
      entry.type === 'file' ? `file:${readFileSync(join(root, path), 'base64')}:${entry.mode}` : entry.type
  return out
}

const summary = (files: PreviewFileChange[]) => files.map((f) => `${f.change} ${f.kind} ${f.path}`).sort()

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t'
    }
  })
}

function buildTree(world: World): void {
  const ws = world.project
  mkdirSync(join(ws, 'build', 'sub'), { recursive: true })
  writeFileSync(join(ws, 'build', 'out.js'), 'console.log(1)\n')
  writeFileSync(join(ws, 'build', 'sub', 'blob.bin'), Buffer.from([0, 1, 2, 3, 0, 255]))
  mkdirSync(join(ws, 'src'))
  writeFileSync(join(ws, 'src', 'main.ts'), 'export {}\n')
}

describe.skipIf(!onLinux || withoutBwrap)('command preview (real bwrap)', NEEDS_BWRAP, () => {
  it('rm -rf build: lists exactly the deleted files and folders, leaves the workspace alone, and approval deletes them', async () => {
    const { world, previews, target } = setup()
    buildTree(world)
    const before = contentOf(world.project)
    const call = target('rm -rf build')
    const preview = await previewDone(previews, call)
    expect(preview.exitCode).toBe(0)
    expect(summary(preview.files)).toEqual([
      'deleted binary build/sub/blob.bin',
      'deleted folder build',
      'deleted folder build/sub',
      'deleted text build/out.js'
    ])
    expect(preview.files.find((f) => f.path === 'build/out.js')?.before).toBe('console.log(1)\n')
    expect(preview.files.find((f) => f.path === 'build/sub/blob.bin')?.sizeBefore).toBe(6)
    expect(preview.refused).toEqual([])
    expect(preview.leftRunning).toBeUndefined()
    expect(preview.onApprove).toBe('apply')
    expect(contentOf(world.project)).toEqual(before)

    const approved = await previews.applyApproved(call)
    expect(approved?.kind).toBe('applied')
    expect(existsSync(join(world.project, 'build'))).toBe(false)
    expect(readFileSync(join(world.project, 'src', 'main.ts'), 'utf8')).toBe('export {}\n')
    // The copy is gone once applied.
    expect(readdirSync(join(world.appData.dataDir, 'command-previews'))).toEqual([])
  })

  it('git clean -fdx: shows the untracked and ignored files it would remove, .git untouched, and approval removes only them', async () => {
    const { world, previews, target } = setup()
    const ws = world.project
    git(ws, 'init', '-q')
    writeFileSync(join(ws, '.gitignore'), 'dist/\n')
    git(ws, 'add', 'readme.txt', '.gitignore')
    git(ws, 'commit', '-q', '-m', 'init')
    writeFileSync(join(ws, 'scratch.txt'), 'untracked\n')
    mkdirSync(join(ws, 'dist'))
    writeFileSync(join(ws, 'dist', 'bundle.js'), 'ignored\n')
    const before = contentOf(ws)
    const call = target('git clean -fdx')
    const preview = await previewDone(previews, call)
    expect(preview.exitCode).toBe(0)
    expect(preview.stdout).toContain('Removing scratch.txt')
    expect(preview.stdout).toContain('Removing dist/')
    expect(preview.stdout).not.toMatch(/\.envrc|\.vscode|\.deepchat/)
    expect(summary(preview.files)).toEqual([
      'deleted folder dist',
      'deleted text dist/bundle.js',
      'deleted text scratch.txt'
    ])
    expect(contentOf(ws)).toEqual(before)

    expect((await previews.applyApproved(call))?.kind).toBe('applied')
    expect(existsSync(join(ws, 'scratch.txt'))).toBe(false)
    expect(existsSync(join(ws, 'dist'))).toBe(false)
    expect(git(ws, 'status', '--porcelain', '--ignored')).toBe('')
    expect(readFileSync(join(ws, 'readme.txt'), 'utf8')).toBe('hello from the project\n')
  })

  it('shows a text change as before and after, a new file as created, and applies both with their modes', async () => {
    const { world, previews, target } = setup()
    const ws = world.project
    const call = target(
      "sed -i 's/hello/goodbye/' readme.txt && printf '#!/bin/sh\\necho hi\\n' > run.sh && chmod 755 run.sh && echo done"
    )
    const preview = await previewDone(previews, call)
    expect(preview.stdout).toBe('done\n')
    expect(summary(preview.files)).toEqual(['changed text readme.txt', 'created text run.sh'])
    const readme = preview.files.find((f) => f.path === 'readme.txt')!
    expect([readme.before, readme.after]).toEqual(['hello from the project\n', 'goodbye from the project\n'])
    expect(existsSync(join(ws, 'run.sh'))).toBe(false)
    expect(readFileSync(join(ws, 'readme.txt'), 'utf8')).toBe('hello from the project\n')

    expect((await previews.applyApproved(call))?.kind).toBe('applied')
    expect(readFileSync(join(ws, 'readme.txt'), 'utf8')).toBe('goodbye from the project\n')
    expect(execFileSync(join(ws, 'run.sh'), { encoding: 'utf8' })).toBe('hi\n')
  })

  it('reports writes outside the workspace as refused, lands none of them, and approval runs for real', async () => {
    const { world, previews, target } = setup()
    const visible = visibleTempDir()
    const script = [
      'echo pwned >> ~/.bashrc',
      'mkdir -p ~/.config/autostart && echo x > ~/.config/autostart/evil.desktop',
      'echo x > /tmp/dropped.txt',
      `echo x > ${visible}/escaped.txt`,
      'echo ok > inside.txt'
    ].join('; ')
    writeFileSync(join(world.project, 'script.sh'), `${script}\n`)
    const call = target('sh script.sh')
    const preview = await previewDone(previews, call)
    const details = preview.refused.map((r) => `${r.kind} ${r.detail}`)
    expect(details).toContain(`outside_write ${join(world.home, '.bashrc')}`)
    expect(details).toContain(`outside_write ${join(world.home, '.config/autostart/evil.desktop')}`)
    expect(details).toContain('outside_write /tmp/dropped.txt')
    expect(details.some((d) => d.startsWith('outside_write') && d.includes('Read-only file system'))).toBe(
      true
    )
    expect(summary(preview.files)).toEqual(['created text inside.txt'])
    expect(preview.onApprove).toBe('run')
    expect(preview.runReason).toBe('refused')
    expect(existsSync(join(world.home, '.bashrc'))).toBe(false)
    expect(existsSync(join(visible, 'escaped.txt'))).toBe(false)
    expect(existsSync('/tmp/dropped.txt') && readFileSync('/tmp/dropped.txt', 'utf8') === 'x\n').toBe(false)
    expect(existsSync(join(world.project, 'inside.txt'))).toBe(false)

    expect(await previews.applyApproved(call)).toEqual({ kind: 'run', reason: 'refused' })
    expect(existsSync(join(world.project, 'inside.txt'))).toBe(false)
  })

  it('gives a command no network: a local server sees no request, the card names the attempt, approval runs for real', async () => {
    const { previews, target } = setup()
    let hits = 0
    const server = createServer((_req, res) => {
      hits++
      res.end('secret page')
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const port = (server.address() as { port: number }).port
    const call = target(
      `curl -sS http://127.0.0.1:${port}/ -o page.html; node -e "fetch('http://localhost:${port}/').catch(e => { console.error(e.cause?.code ?? e.message); process.exit(3) })"`
    )
    const preview = await previewDone(previews, call)
    expect(hits).toBe(0)
    expect(preview.exitCode).toBe(3)
    expect(preview.refused.filter((r) => r.kind === 'network').length).toBeGreaterThanOrEqual(2)
    expect(preview.refused.map((r) => r.detail).join('\n')).toMatch(/Failed to connect|Couldn't connect/i)
    expect(preview.refused.map((r) => r.detail).join('\n')).toMatch(/ECONNREFUSED/)
    expect(preview.onApprove).toBe('run')
    expect(await previews.applyApproved(call)).toEqual({ kind: 'run', reason: 'refused' })
  })

  it('runs for real when the workspace changed after the preview, and applies nothing of it', async () => {
    const { world, previews, target } = setup()
    const call = target('echo generated > out.txt')
    const preview = await previewDone(previews, call)
    expect(summary(preview.files)).toEqual(['created text out.txt'])
    writeFileSync(join(world.project, 'readme.txt'), 'the user edited this meanwhile\n')
    const approved = await previews.applyApproved(call)
    expect(approved).toMatchObject({ kind: 'run', reason: 'workspace_changed', detail: 'readme.txt changed' })
    expect(existsSync(join(world.project, 'out.txt'))).toBe(false)
  })

  it('notices a change inside .git between preview and approval (git clean depends on the index)', async () => {
    const { world, previews, target } = setup()
    const ws = world.project
    git(ws, 'init', '-q')
    writeFileSync(join(ws, 'new.txt'), 'soon tracked\n')
    const call = target('git clean -fd')
    const preview = await previewDone(previews, call)
    expect(summary(preview.files)).toEqual(['deleted text new.txt', 'deleted text readme.txt'])
    git(ws, 'add', 'new.txt')
    expect(await previews.applyApproved(call)).toMatchObject({ kind: 'run', reason: 'workspace_changed' })
    expect(existsSync(join(ws, 'new.txt'))).toBe(true)
  })

  it('flags a protected entry the command would create, and shows a write into .git as refused', async () => {
    const { world, previews, target } = setup()
    const ws = world.project
    git(ws, 'init', '-q')
    const config = readFileSync(join(ws, '.git', 'config'), 'utf8')
    const preview = await previewDone(
      previews,
      target('echo "export A=1" > .envrc; echo evil >> .git/config')
    )
    const envrc = preview.files.find((f) => f.path === '.envrc')
    expect(envrc).toMatchObject({ change: 'created', protectedEntry: true, after: 'export A=1\n' })
    expect(
      preview.refused.some((r) => r.kind === 'outside_write' && /Read-only file system/.test(r.detail))
    ).toBe(true)
    expect(preview.onApprove).toBe('run')
    expect(existsSync(join(ws, '.envrc'))).toBe(false)
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe(config)
  })

  it("never runs longer than the call's own timeout_ms", async () => {
    const { previews, target } = setup()
    const preview = await previewDone(previews, { ...target('sleep 20'), timeoutMs: 300 })
    expect(preview).toMatchObject({ timedOut: true, onApprove: 'run', runReason: 'timed_out' })
    expect(preview.limits.timeMs).toBe(300)
  })

  it('stops at its time limit and says so; approval then runs for real', async () => {
    const { previews, target } = setup({ timeMs: 500 })
    const call = target('echo started; sleep 20; echo never > late.txt')
    const startedAt = Date.now()
    const preview = await previewDone(previews, call)
    expect(Date.now() - startedAt).toBeLessThan(10_000)
    expect(preview.timedOut).toBe(true)
    expect(preview.stdout).toBe('started\n')
    expect(preview.files).toEqual([])
    expect(preview.limits.timeMs).toBe(500)
    expect(preview.onApprove).toBe('run')
    expect(await previews.applyApproved(call)).toEqual({ kind: 'run', reason: 'timed_out' })
  })

  it('stops a command that keeps writing once it passes the size limit; approval then runs for real', async () => {
    const { world, previews, target } = setup({ maxBytes: 1024 * 1024, timeMs: 20_000 })
    const call = target('while true; do head -c 100000 /dev/zero >> big.bin; done')
    const startedAt = Date.now()
    const preview = await previewDone(previews, call)
    expect(Date.now() - startedAt).toBeLessThan(10_000)
    expect(preview).toMatchObject({
      sizeExceeded: true,
      timedOut: false,
      onApprove: 'run',
      runReason: 'size_limit'
    })
    expect(preview.files.map((f) => `${f.change} ${f.kind} ${f.path}`)).toEqual(['created too_large big.bin'])
    expect(existsSync(join(world.project, 'big.bin'))).toBe(false)
    expect(await previews.applyApproved(call)).toEqual({ kind: 'run', reason: 'size_limit' })
  })

  it('does not apply a command that leaves a process running (a server started with &): approval runs it for real', async () => {
    const { world, previews, target } = setup()
    const call = target('echo started > server.log; sleep 30 & echo launched')
    const preview = await previewDone(previews, call)
    expect(preview).toMatchObject({
      exitCode: 0,
      leftRunning: 1,
      onApprove: 'run',
      runReason: 'left_running'
    })
    expect(preview.stdout).toBe('launched\n')
    expect(existsSync(join(world.project, 'server.log'))).toBe(false)
    expect(await previews.applyApproved(call)).toEqual({ kind: 'run', reason: 'left_running' })
  })

  it('gives no preview of a command whose working folder lies outside the workspace', async () => {
    const { world, previews, target } = setup()
    const preview = await previews.preview({ ...target('touch here.txt'), cwd: world.home })
    expect(preview).toMatchObject({ status: 'unavailable', reason: 'not_supported' })
  })

  it('runs for real on approval a command the classifier says writes .git, though its preview failed silently', async () => {
    const { world, previews, target } = setup()
    git(world.project, 'init', '-q')
    const call = { ...target('git add readme.txt 2>/dev/null; echo staged'), writesProtected: true }
    const preview = await previewDone(previews, call)
    expect(preview.refused).toEqual([])
    expect(preview).toMatchObject({ onApprove: 'run', runReason: 'protected' })
    expect(await previews.applyApproved(call)).toEqual({ kind: 'run', reason: 'protected' })
  })

  it('drops the copy of a denied request at once, and keeps an allowed one for exec to apply', async () => {
    const { world, previews, target } = setup()
    const root = join(world.appData.dataDir, 'command-previews')
    const denied = target('echo a > a.txt')
    const allowed = target('echo b > b.txt')
    await previews.preview(denied, 'i-denied')
    await previews.preview(allowed, 'i-allowed')
    expect(readdirSync(root)).toHaveLength(2)
    previews.settle('s1', (id) => (id === 'i-denied' ? 'denied' : 'granted'))
    await vi.waitFor(() => expect(readdirSync(root)).toHaveLength(1))
    expect(await previews.applyApproved(denied)).toBeNull()
    expect((await previews.applyApproved(allowed))?.kind).toBe('applied')
    expect(readFileSync(join(world.project, 'b.txt'), 'utf8')).toBe('b\n')
    expect(existsSync(join(world.project, 'a.txt'))).toBe(false)
  })

  it('runs the line under a cap on processes (a fork bomb cannot take the machine before anyone approved it)', async () => {
    const { previews, target } = setup()
    const preview = await previewDone(previews, target('ulimit -u'))
    // What this user runs now plus 2,048 (the kernel counts the user's tasks system-wide; it
    // exempts root, which these tests run as, so the cap is checked here, not a fork failing).
    const cap = Number(preview.stdout)
    expect(cap).toBeGreaterThan(2048)
    expect(cap).toBeLessThan(2048 + 100_000)
  })

  it("previews in a chat's scratch folder inside the data folder, which stays hidden but for the copy", async () => {
    const { world, previews, target } = setup()
    const scratch = join(world.appData.scratchRoot, 'chat-1')
    mkdirSync(scratch)
    writeFileSync(join(scratch, 'notes.md'), 'draft\n')
    const call = {
      ...target('cat notes.md; ls ../..; cat ../../secrets.json; echo done > notes.md'),
      cwd: scratch,
      workspaceDir: scratch
    }
    const preview = await previewDone(previews, call)
    expect(preview.stdout).toContain('draft')
    expect(preview.stdout + preview.stderr).not.toContain('BEGIN FAKE PRIVATE KEY')
    expect(summary(preview.files)).toEqual(['changed text notes.md'])
    expect(readFileSync(join(scratch, 'notes.md'), 'utf8')).toBe('draft\n')
    expect((await previews.applyApproved(call))?.kind).toBe('applied')
    expect(readFileSync(join(scratch, 'notes.md'), 'utf8')).toBe('done\n')
  })

  it('makes no copy of a workspace over its size limit, and says why', async () => {
    const { world, previews, target } = setup({ maxFiles: 5 })
    for (let i = 0; i < 10; i++) writeFileSync(join(world.project, `f${i}.txt`), 'x')
    const preview = await previews.preview(target('rm f1.txt'))
    expect(preview).toMatchObject({ status: 'unavailable', reason: 'workspace_too_large' })
    expect(existsSync(join(world.project, 'f1.txt'))).toBe(true)
  })

  it('keeps output to its limit and counts what it dropped', async () => {
    const { previews, target } = setup({ outputChars: 100 })
    const preview = await previewDone(previews, target('head -c 5000 /dev/zero | tr "\\0" a'))
    expect(preview.stdout).toBe('a'.repeat(100))
    expect(preview.outputDropped).toBe(4900)
  })
})

describe.skipIf(!onLinux || withoutBwrap)(
  'exec applies an approved preview (real bwrap)',
  NEEDS_BWRAP,
  () => {
    function presenter(world: World) {
      const previews = new CommandPreviews({
        root: join(world.appData.dataDir, 'command-previews'),
        home: world.home,
        appData: world.appData,
        baseEnv: async () => ({ ...process.env })
      })
      previewers.push(previews)
      const sqlite = new SqlitePresenter({ file: join(world.root, 'db.sqlite') })
      const gate = new PermissionPresenter({ rules: new PermissionRuleStore(sqlite), home: world.home })
      const sandbox = new Sandbox({ home: world.home, appData: world.appData })
      const runtime = new RecordingRuntime()
      const tools = new ToolPresenter({
        mcp: emptyMcp,
        permissions: gate,
        runtime,
        sessionDataRoot: join(world.appData.dataDir, 'sessions'),
        files: new FilePermissionService(world.home, { appData: world.appData }),
        commands: new CommandPermissionService({ home: world.home, appData: world.appData }),
        sandbox,
        processes: new BackgroundProcessManager({ sandbox }),
        agentTools: new AgentToolManager(),
        commandPreviews: previews
      })
      const ctx = { sessionId: 's1', workspaceDir: world.project, permissionMode: 'default' as const }
      const close = async () => {
        await tools.dispose()
        sqlite.close()
      }
      return { previews, gate, tools, ctx, runtime, close }
    }

    async function askThenApprove(
      p: ReturnType<typeof presenter>,
      world: World,
      command: string,
      between?: () => void
    ) {
      const call = { id: 'call_rm', name: 'exec', arguments: JSON.stringify({ command }) }
      const error = await p.tools.callTool(call, p.ctx).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(CommandPermissionRequiredError)
      const request = (error as CommandPermissionRequiredError).request
      const preview = await p.previews.preview({
        sessionId: 's1',
        toolCallId: 'call_rm',
        command: request.command!,
        cwd: request.cwd!,
        workspaceDir: world.project,
        tool: request.tool
      })
      between?.()
      p.gate.decide(request, 'once')
      const result = await p.tools.callTool(call, p.ctx)
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
      return { preview, result, text }
    }

    it('runs an approved command for real when its preview wrote outside the workspace; the preview’s own write never landed', async () => {
      const world = makeWorld(realpathSync(tempDir()))
      buildTree(world)
      const p = presenter(world)
      try {
        const { preview, result, text } = await askThenApprove(
          p,
          world,
          'echo ran >> ../ran.log; rm -rf build && echo removed build'
        )
        expect(preview).toMatchObject({ status: 'done', onApprove: 'run' })
        expect(text).toContain('Ran for real after approval')
        expect(readFileSync(join(world.home, 'ran.log'), 'utf8')).toBe('ran\n')
        expect(result.rawData.toolResult.data).toMatchObject({ preview: 'ran', previewReason: 'refused' })
      } finally {
        await p.close()
      }
    })

    it('applies the preview of an approved rm -rf build, tells the model, and keeps it undoable', async () => {
      const world = makeWorld(realpathSync(tempDir()))
      buildTree(world)
      const p = presenter(world)
      try {
        const { preview, result, text } = await askThenApprove(p, world, 'rm -rf build && echo removed build')
        expect(preview).toMatchObject({ status: 'done', onApprove: 'apply' })
        expect(text).toContain('Applied from preview')
        expect(text).toContain('removed build')
        expect(text).toContain('Exit code: 0')
        expect(result.rawData.toolResult.data).toMatchObject({ preview: 'applied', exitCode: 0 })
        expect(existsSync(join(world.project, 'build'))).toBe(false)
        const snapshots = p.runtime.snapshots.map((s) => s.path.slice(world.project.length + 1)).sort()
        expect(snapshots).toContain('build/out.js')
      } finally {
        await p.close()
      }
    })

    it('runs an approved command for real when the workspace changed after its preview, and says so', async () => {
      const world = makeWorld(realpathSync(tempDir()))
      buildTree(world)
      const p = presenter(world)
      try {
        const { text, result } = await askThenApprove(p, world, 'rm -rf build && echo removed build', () =>
          writeFileSync(join(world.project, 'build', 'late.txt'), 'made after the preview\n')
        )
        expect(text).toContain(
          'Ran for real after approval, not applied from preview: the workspace changed since the preview'
        )
        expect(text).toContain('removed build')
        expect(result.rawData.toolResult.data).toMatchObject({
          preview: 'ran',
          previewReason: 'workspace_changed'
        })
        expect(existsSync(join(world.project, 'build'))).toBe(false)
      } finally {
        await p.close()
      }
    })
  }
)

describe('applying a preview', () => {
  function trees() {
    const root = realpathSync(tempDir())
    const ws = join(root, 'ws')
    const copy = join(root, 'copy')
    mkdirSync(ws)
    mkdirSync(join(copy, 'sub'), { recursive: true })
    writeFileSync(join(ws, 'old.txt'), 'old\n')
    writeFileSync(join(copy, 'sub', 'new.txt'), 'new\n')
    const entry = (path: string, root: string) => ({ path, entry: walkTree(root).get(path)! })
    return {
      ws,
      copy,
      deleted: { ...entry('old.txt', ws), change: 'deleted' as const },
      created: { ...entry('sub/new.txt', copy), change: 'created' as const }
    }
  }

  it('touches nothing when a new file of the copy cannot be read', () => {
    const { ws, copy, deleted, created } = trees()
    const missing = { ...created, path: 'sub/gone.txt' }
    expect(() => applyChanges(ws, copy, [deleted, missing])).toThrow(/ENOENT/)
    expect(readFileSync(join(ws, 'old.txt'), 'utf8')).toBe('old\n')
  })

  it('says when it failed partway, so the command is not run on top of half its changes', () => {
    const { ws, copy, deleted, created } = trees()
    // The folder `sub` is not among the changes, so writing into it fails after the delete.
    expect(() => applyChanges(ws, copy, [deleted, created])).toThrow(PartlyAppliedError)
    expect(existsSync(join(ws, 'old.txt'))).toBe(false)
  })
})
