// Protected entries at any depth and git's own indirections, judged by the file service (write
// and edit tools) and the command classifier, on a real tree made with real git.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PermissionMode } from '@shared/types/permission'
import { CommandPermissionService } from '../../../src/main/presenter/permission/commandPermissionService'
import { FilePermissionService } from '../../../src/main/presenter/permission/filePermissionService'
import { expectDecision, type Expected } from './commandFixture'

let root: string
let ws: string
let plain: string
let home: string
let files: FilePermissionService
let commands: CommandPermissionService

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'ignore' })
}

function put(path: string, content = ''): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, content)
}

/**
 *   ws/                 a repository: core.hooksPath=.husky/_, include.path=../.gitconfig,
 *                       includeIf "onbranch:main".path=../tools/branch.gitconfig
 *     sub/              a nested repository: include.path=../../shared/sub.gitconfig, core.hooksPath=hooks
 *     bare.git/         a bare repository
 *     half/HEAD         one marker: a git directory is one write away
 *     half2/objects/    another
 *     broken/           a repository whose config git cannot read
 *     config/app.json   an ordinary folder that happens to be named like a marker
 *     lnk/.envrc        a link to notes/env.sh: direnv reads that file
 *   plain/              a workspace that is no repository
 */
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'protected-depth-')))
  ws = join(root, 'ws')
  plain = join(root, 'plain')
  home = join(root, 'home')
  mkdirSync(ws)
  mkdirSync(plain)
  mkdirSync(home)
  git(ws, 'init', '-q')
  git(ws, 'config', 'core.hooksPath', '.husky/_')
  git(ws, 'config', 'include.path', '../.gitconfig')
  git(ws, 'config', 'includeIf.onbranch:main.path', '../tools/branch.gitconfig')
  git(ws, 'init', '-q', 'sub')
  git(join(ws, 'sub'), 'config', 'include.path', '../../shared/sub.gitconfig')
  git(join(ws, 'sub'), 'config', 'core.hooksPath', 'hooks')
  git(ws, 'init', '-q', '--bare', 'bare.git')
  git(ws, 'init', '-q', 'broken')
  writeFileSync(join(ws, 'broken', '.git', 'config'), '[core\n\tthis is not = a config\n')
  put(join(ws, 'half', 'HEAD'), 'ref: refs/heads/main\n')
  mkdirSync(join(ws, 'half2', 'objects'), { recursive: true })
  put(join(ws, 'config', 'app.json'), '{}')
  put(join(ws, 'sub', 'src', 'a.ts'), 'a')
  put(join(ws, 'notes', 'env.sh'), 'export A=1\n')
  mkdirSync(join(ws, 'lnk'))
  symlinkSync('../notes/env.sh', join(ws, 'lnk', '.envrc'))
  // A worktree's admin folder whose common directory (no HEAD of its own) lies elsewhere.
  put(join(ws, 'store', 'config'), '[core]\n')
  mkdirSync(join(ws, 'store', 'objects'))
  mkdirSync(join(ws, 'store', 'refs'))
  put(join(ws, 'wt', 'HEAD'), 'ref: refs/heads/main\n')
  put(join(ws, 'wt', 'commondir'), '../store\n')
  // Programs the config names by path: git runs them from the top of the working tree.
  put(join(ws, 'tools', 'watch.sh'), '#!/bin/sh\n')
  put(join(ws, 'scripts', 'conv'), '#!/bin/sh\n')
  put(join(ws, 'scripts', 'alias.sh'), '#!/bin/sh\n')
  git(ws, 'config', 'core.fsmonitor', 'tools/watch.sh')
  git(ws, 'config', 'diff.conv.textconv', '"./scripts/conv" --flag')
  git(ws, 'config', 'alias.x', '!scripts/alias.sh arg')
  files = new FilePermissionService(home)
  commands = new CommandPermissionService({ home })
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

const scope = (workspaceDir: string) => ({
  sessionId: 's1',
  workspaceDir,
  tool: 'write',
  server: 'agent-filesystem'
})

describe('the write and edit tools ask (high) for protected paths at any depth', () => {
  const asks: [path: string, why: RegExp][] = [
    ['sub/.git/config', /in sub\/\.git, which configures programs/],
    ['sub/.envrc', /in sub\/\.envrc, which configures programs/],
    ['a/b/.vscode/tasks.json', /in a\/b\/\.vscode, which/],
    ['a/.idea/workspace.xml', /in a\/\.idea, which/],
    ['a/.deepchat/skills/x/SKILL.md', /in a\/\.deepchat, which/],
    ['.husky/pre-commit', /in \.husky, which/],
    ['pkg/.husky/pre-commit', /in pkg\/\.husky, which/],
    ['x/.githooks/pre-push', /in x\/\.githooks, which/],
    ['newrepo/.git', /in newrepo\/\.git, which/],
    ['.gitconfig', /in \.gitconfig, which git reads or runs/],
    ['tools/branch.gitconfig', /in tools\/branch\.gitconfig, which git reads or runs/],
    ['shared/sub.gitconfig', /in shared\/sub\.gitconfig, which git reads or runs/],
    ['sub/hooks/pre-commit', /in sub\/hooks, which git reads or runs/],
    ['bare.git/config', /in bare\.git, a git directory/],
    ['bare.git/hooks/post-update', /in bare\.git, a git directory/],
    ['half/config', /would make half a git directory/],
    ['half/objects/info/x', /would make half a git directory/],
    ['half2/HEAD', /would make half2 a git directory/],
    ['broken/src/a.txt', /in broken, a repository whose git config cannot be read/],
    ['notes/env.sh', /the protected entry lnk\/\.envrc links to/],
    ['tools/watch.sh', /in tools\/watch\.sh, which git reads or runs/],
    ['scripts/conv', /in scripts\/conv, which git reads or runs/],
    ['scripts/alias.sh', /in scripts\/alias\.sh, which git reads or runs/],
    ['store/config', /in store, which git reads or runs/],
    ['wt/commondir', /in wt, a git directory/]
  ]
  it.each(asks)('%s', (path, why) => {
    const request = files.check('write', [path], scope(ws))
    expect(request, path).toMatchObject({
      risk: 'high',
      reasonCodes: [{ code: 'protected_path' }],
      paths: [join(ws, path)]
    })
    // The classifier names what is protected and why.
    const line = commands.check(
      `echo x > ${path}`,
      { sessionId: 's1', workspaceDir: ws, cwd: ws, tool: 'exec', server: 'agent-filesystem' },
      'accept_edits',
      true
    )
    expect(line?.reason).toMatch(why)
  })

  it('asks for the first files of a bare repository made by hand in a workspace that is no repository', () => {
    expect(files.check('write', ['HEAD'], scope(plain))).toBeNull()
    put(join(plain, 'HEAD'), 'ref: refs/heads/main\n')
    try {
      for (const path of ['config', 'objects/pack/x', 'refs/heads/main', 'commondir'])
        expect(files.check('write', [path], scope(plain)), path).toMatchObject({ risk: 'high' })
    } finally {
      rmSync(join(plain, 'HEAD'))
    }
  })

  const free = [
    'src/deep/x.ts',
    'sub/src/a.ts',
    'sub/README.md',
    'a/b/c.txt',
    'config/app.json',
    'half/notes.txt',
    'husky.txt',
    'tools/other.gitconfig',
    'scripts/other.sh',
    '.github/workflows/ci.yml'
  ]
  it.each(free)('writes %s unasked', (path) => {
    expect(files.check('write', [path], scope(ws))).toBeNull()
  })

  it('still reads protected entries unasked', () => {
    expect(files.check('read', ['sub/.git/config', '.gitconfig', 'bare.git/HEAD'], scope(ws))).toBeNull()
  })
})

describe('the classifier agrees: a line writing such a path asks in every mode but full access', () => {
  const check = (line: string, mode: PermissionMode) =>
    commands.check(
      line,
      { sessionId: 's1', workspaceDir: ws, cwd: ws, tool: 'exec', server: 'agent-filesystem' },
      mode,
      true
    )
  const rows: [line: string, expected: Expected, code?: string][] = [
    ["printf '[core]\\n\\tfsmonitor = touch x\\n' >> sub/.git/config", 'high', 'protected_write'],
    ['echo "touch x" > sub/.envrc', 'high', 'protected_write'],
    ['mkdir -p a/b/.vscode', 'high', 'protected_write'],
    ['echo {} > a/b/.vscode/tasks.json', 'high', 'protected_write'],
    ['cp src/a.ts .husky/pre-commit', 'high', 'protected_write'],
    ['echo x > pkg/.husky/pre-commit', 'high', 'protected_write'],
    ['echo "[core] fsmonitor = x" >> .gitconfig', 'high', 'protected_git_reads'],
    ['tee tools/branch.gitconfig < src/a.ts', 'high', 'protected_git_reads'],
    ['echo x > sub/hooks/pre-commit', 'high', 'protected_git_reads'],
    ['echo x >> bare.git/config', 'high', 'protected_git_dir'],
    ['echo "ref: refs/heads/main" > half2/HEAD', 'high', 'protected_git_creation'],
    ['mv notes.txt sub/.git/hooks/pre-commit', 'high', 'protected_write'],
    ['git -C sub config core.fsmonitor x', 'high', 'git_config_write'],
    ['git init -q sub2', 'medium', 'git_writes_repository']
  ]
  for (const mode of ['default', 'accept_edits', 'sandboxed'] as PermissionMode[]) {
    it.each(rows)(`${mode}: %s -> %s %s`, (line, expected, code) => {
      expectDecision(check(line, mode), line, expected, code)
    })
  }

  const unasked: [line: string, modes: PermissionMode[]][] = [
    ['git status', ['default', 'accept_edits', 'sandboxed']],
    ['git -C sub status --short', ['default', 'accept_edits', 'sandboxed']],
    ['git log --oneline -5 && git diff --stat', ['default', 'accept_edits', 'sandboxed']],
    ['cat sub/.git/config .gitconfig', ['default', 'accept_edits', 'sandboxed']],
    ['echo x > sub/notes.txt', ['accept_edits', 'sandboxed']],
    ['mkdir -p deep/er && echo x > deep/er/y.txt', ['accept_edits', 'sandboxed']],
    ['echo "{}" > config/app.json', ['accept_edits', 'sandboxed']]
  ]
  for (const [line, modes] of unasked)
    for (const mode of modes)
      it(`${mode}: ${line} runs unasked`, () => expectDecision(check(line, mode), line, 'allow'))
})
