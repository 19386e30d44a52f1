// Protected entries below the top of a writable workspace, with real bwrap and real git, the
// classifier out of the picture: what exists is read-only, what a command creates (a nested
// `.git`, `.envrc`, a git directory, a file git reads through its config) is taken out again
// once it exits, and the user's next `git status` runs nothing the command planted.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Sandbox } from '../../../src/main/presenter/sandbox'
import { BackgroundProcessManager } from '../../../src/main/presenter/toolPresenter/agentTools/processManager'
import { useTempDirs } from '../helpers/tempDir'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'
import { makeWorld, managerFor, onLinux, run, type World } from './harness'
import { until } from '../../helpers/until'

const tempDir = useTempDirs()

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'ignore' })
}

/** A git config line that runs `touch <marker>` at the next `git status`. */
function fsmonitorPayload(marker: string): string {
  return `[core]\n\tfsmonitor = touch ${marker}; false\n`
}

/** Runs the user's own `git status` on the host in `dir`; true when the planted payload ran. */
function userGitStatusRunsPayload(dir: string, marker: string): boolean {
  spawnSync('git', ['status'], {
    cwd: dir,
    stdio: 'ignore',
    env: { ...process.env, GIT_CEILING_DIRECTORIES: '' }
  })
  return existsSync(marker)
}

/** True when git, run by the user in `dir`, takes `dir` itself for a (bare) repository. */
function isOwnRepository(dir: string): boolean {
  const result = spawnSync('git', ['rev-parse', '--git-dir'], { cwd: dir, encoding: 'utf8' })
  return result.status === 0 && result.stdout.trim() === '.'
}

function world(): { world: World; ws: string; marker: string } {
  const w = makeWorld(tempDir())
  return { world: w, ws: w.project, marker: join(w.root, 'payload-ran') }
}

const writable = (ws: string) => ({ workspaceDir: ws, writableWorkspace: true })

describe.skipIf(!onLinux || withoutBwrap)(
  'protected entries at any depth in the sandbox (real bwrap, real git)',
  NEEDS_BWRAP,
  () => {
    it('cannot append to a nested repository config, and git status there runs nothing', async () => {
      const { world: w, ws, marker } = world()
      git(ws, 'init', '-q', 'sub')
      const before = readFileSync(join(ws, 'sub', '.git', 'config'), 'utf8')
      const result = await run(
        managerFor(w),
        w,
        `printf '${fsmonitorPayload(marker).replace(/\n/g, '\\n').replace(/\t/g, '\\t')}' >> sub/.git/config; echo ok > sub/notes.txt`,
        writable(ws)
      )
      expect(result.output).toMatch(/Read-only file system/)
      expect(readFileSync(join(ws, 'sub', '.git', 'config'), 'utf8')).toBe(before)
      expect(readFileSync(join(ws, 'sub', 'notes.txt'), 'utf8')).toBe('ok\n')
      expect(userGitStatusRunsPayload(join(ws, 'sub'), marker)).toBe(false)
    })

    it('takes out a nested .envrc, .vscode and a new repository it created, and says so', async () => {
      const { world: w, ws, marker } = world()
      mkdirSync(join(ws, 'sub'))
      const command = [
        'echo "touch pwned" > sub/.envrc',
        'mkdir -p a/b/.vscode && echo {} > a/b/.vscode/tasks.json',
        'git init -q sub2',
        `printf '[core]\\n\\tfsmonitor = touch ${marker}; false\\n' >> sub2/.git/config`,
        'mkdir -p deep/er && echo ok > deep/er/normal.txt'
      ].join('; ')
      const result = await run(managerFor(w), w, command, writable(ws))
      expect(result.exitCode).toBe(0)
      expect(existsSync(join(ws, 'sub', '.envrc'))).toBe(false)
      expect(existsSync(join(ws, 'a', 'b', '.vscode'))).toBe(false)
      expect(existsSync(join(ws, 'sub2', '.git'))).toBe(false)
      expect(readFileSync(join(ws, 'deep', 'er', 'normal.txt'), 'utf8')).toBe('ok\n')
      expect(result.protectedUndone?.map((u) => u.path).sort()).toEqual([
        'a/b/.vscode',
        'sub/.envrc',
        'sub2/.git'
      ])
      // Moved into the session's data folder (here the log folder), not lost.
      for (const undone of result.protectedUndone ?? []) expect(existsSync(undone.movedTo ?? '')).toBe(true)
      expect(userGitStatusRunsPayload(join(ws, 'sub2'), marker)).toBe(false)
    })

    it('takes out a bare repository made by hand in a workspace that is not a repository', async () => {
      const { world: w, ws, marker } = world()
      const command = [
        'mkdir -p objects refs/heads',
        'echo "ref: refs/heads/main" > HEAD',
        `printf '[core]\\n\\tbare = false\\n\\tworktree = .\\n\\tfsmonitor = touch ${marker}; false\\n' > config`
      ].join('; ')
      const result = await run(managerFor(w), w, command, writable(ws))
      expect(result.protectedUndone?.map((u) => u.path)).toEqual(['HEAD'])
      expect(existsSync(join(ws, 'HEAD'))).toBe(false)
      expect(isOwnRepository(ws)).toBe(false)
      expect(userGitStatusRunsPayload(ws, marker)).toBe(false)
      // The same files made on the host are a repository to git: the check above can fail.
      writeFileSync(join(ws, 'HEAD'), 'ref: refs/heads/main\n')
      expect(isOwnRepository(ws)).toBe(true)
    })

    it('takes out a bare repository made inside a folder of a git workspace', async () => {
      const { world: w, ws, marker } = world()
      git(ws, 'init', '-q')
      const command = [
        'mkdir -p inner/objects inner/refs/heads',
        `printf '[core]\\n\\tfsmonitor = touch ${marker}; false\\n' > inner/config`,
        'echo "ref: refs/heads/main" > inner/HEAD'
      ].join('; ')
      const result = await run(managerFor(w), w, command, writable(ws))
      expect(result.protectedUndone?.map((u) => u.path)).toEqual(['inner/HEAD'])
      expect(isOwnRepository(join(ws, 'inner'))).toBe(false)
      expect(userGitStatusRunsPayload(join(ws, 'inner'), marker)).toBe(false)
      expect(userGitStatusRunsPayload(ws, marker)).toBe(false)
    })

    it('keeps the hooks folder of core.hooksPath and the file include.path names read-only', async () => {
      const { world: w, ws, marker } = world()
      git(ws, 'init', '-q')
      git(ws, 'config', 'core.hooksPath', 'tools/hooks')
      git(ws, 'config', 'include.path', '../shared.gitconfig')
      mkdirSync(join(ws, 'tools', 'hooks'), { recursive: true })
      writeFileSync(join(ws, 'shared.gitconfig'), '[user]\n\tname = me\n')
      const command = [
        'echo "touch pwned" > tools/hooks/pre-commit',
        `printf '[core]\\n\\tfsmonitor = touch ${marker}; false\\n' >> shared.gitconfig`,
        'echo ok > tools/readme.txt'
      ].join('; ')
      const result = await run(managerFor(w), w, command, writable(ws))
      expect(result.output).toMatch(/Read-only file system/)
      expect(readdirSync(join(ws, 'tools', 'hooks'))).toEqual([])
      expect(readFileSync(join(ws, 'shared.gitconfig'), 'utf8')).toBe('[user]\n\tname = me\n')
      expect(readFileSync(join(ws, 'tools', 'readme.txt'), 'utf8')).toBe('ok\n')
      expect(userGitStatusRunsPayload(ws, marker)).toBe(false)
    })

    it('takes out an include.path target that did not exist and .husky hooks, even when created by an interpreter', async () => {
      const { world: w, ws, marker } = world()
      git(ws, 'init', '-q')
      git(ws, 'config', 'include.path', '../.gitconfig')
      git(ws, 'config', 'core.hooksPath', '.husky/_')
      const script = [
        'import os',
        `open('.gitconfig', 'w').write('[core]\\n\\tfsmonitor = touch ${marker}; false\\n')`,
        "os.makedirs('pkg/.husky/_', exist_ok=True)",
        "open('pkg/.husky/pre-commit', 'w').write('touch pwned')"
      ].join('\n')
      writeFileSync(join(ws, 'plant.py'), script)
      const result = await run(managerFor(w), w, 'python3 plant.py', writable(ws))
      expect(result.protectedUndone?.map((u) => u.path).sort()).toEqual(['.gitconfig', 'pkg/.husky'])
      expect(existsSync(join(ws, '.gitconfig'))).toBe(false)
      expect(userGitStatusRunsPayload(ws, marker)).toBe(false)
    })

    it('takes out what a command still running creates, without waiting for it to exit', async () => {
      const { world: w, ws, marker } = world()
      const manager = managerFor(w)
      const started = await manager.start({
        sessionId: 'test',
        command: `mkdir sub && echo "touch ${marker}" > sub/.envrc && echo planted && sleep 60`,
        cwd: ws,
        logDir: w.logDir,
        keepStdin: false,
        sandbox: writable(ws)
      })
      await until(() => (manager.info('test', started.processId).protectedUndone?.length ?? 0) > 0, {
        what: 'the plant is undone'
      })
      expect(manager.info('test', started.processId).status).toBe('running')
      expect(manager.info('test', started.processId).protectedUndone?.map((u) => u.path)).toEqual([
        'sub/.envrc'
      ])
      expect(existsSync(join(ws, 'sub', '.envrc'))).toBe(false)
      await manager.kill('test', started.processId)
    })

    it("keeps the folders beyond the scan's cap read-only and says so, and a flood of new folders hides no plant", async () => {
      const { world: w, ws } = world()
      // The cap is 20,000 folders; this sandbox scans 40 so the test stays small.
      const sandbox = new Sandbox({ home: w.home, appData: w.appData, scanLimit: 40 })
      const manager = new BackgroundProcessManager({ sandbox })
      execFileSync('bash', ['-c', 'mkdir -p pad/{1..60}'], { cwd: ws })
      writeFileSync(
        join(ws, 'fill.py'),
        [
          'import os',
          'n = 0',
          "for d in os.listdir('pad'):",
          '    try:',
          "        open(f'pad/{d}/f', 'w').close()",
          '        n += 1',
          '    except OSError:',
          '        pass',
          'print(n)',
          // More new folders than even the look after the run visits (40 x 11), one plant among them.
          "for i in range(600): os.makedirs(f'flood/{i}/x', exist_ok=True)",
          "open('flood/599/x/.envrc', 'w').write('touch pwned')",
          "os.makedirs('sub', exist_ok=True)",
          "open('sub/.envrc', 'w').write('touch pwned')"
        ].join('\n')
      )
      const result = await run(manager, w, 'python3 fill.py', writable(ws))
      const notice = /(\d+) folders beyond them were read-only/.exec(result.sandboxNotice ?? '')
      expect(notice, result.sandboxNotice).not.toBeNull()
      const beyond = Number(notice?.[1])
      expect(beyond).toBeGreaterThan(0)
      expect(Number(result.output.trim().split('\n')[0])).toBe(60 - beyond)
      expect(existsSync(join(ws, 'sub', '.envrc'))).toBe(false)
      expect(existsSync(join(ws, 'flood', '599', 'x', '.envrc'))).toBe(false)
      expect(result.protectedUndone?.map((u) => u.path)).toContain('sub/.envrc')
    })

    it('lets ordinary work in a nested repository run: edits, git status, log and diff', async () => {
      const { world: w, ws } = world()
      git(ws, 'init', '-q', 'sub')
      writeFileSync(join(ws, 'sub', 'a.txt'), 'one\n')
      git(join(ws, 'sub'), 'add', 'a.txt')
      git(join(ws, 'sub'), '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'first')
      const result = await run(
        managerFor(w),
        w,
        'echo two >> sub/a.txt && git -C sub status --short && git -C sub log --oneline && git -C sub diff --stat',
        writable(ws)
      )
      expect(result.exitCode).toBe(0)
      expect(result.output).toMatch(/M a\.txt/)
      expect(result.output).toMatch(/first/)
      expect(result.protectedUndone).toBeUndefined()
      expect(readFileSync(join(ws, 'sub', 'a.txt'), 'utf8')).toBe('one\ntwo\n')
    })
  }
)
