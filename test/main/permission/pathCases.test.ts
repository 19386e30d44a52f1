import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PermissionMode, RiskLevel } from '@shared/types/permission'
import { PermissionRequiredError } from '../../../src/main/presenter/permission'
import { FilePermissionService } from '../../../src/main/presenter/permission/filePermissionService'
import { resolveRealPath } from '../../../src/main/presenter/permission/paths'
import { createHarness, type Harness } from '../tools/helpers'

/**
 * The file boundary as a table: each path, through the real tool pipeline (validation, refusal,
 * FilePermissionService, the gate in default mode), on real folders and real symlinks.
 */

type Verdict =
  { decision: 'allow' } | { decision: 'ask'; risk: RiskLevel; code: string } | { decision: 'refuse' }
type Expected = Verdict | { decision: 'invalid'; problem: RegExp }

const allow: Verdict = { decision: 'allow' }
const ask = (risk: RiskLevel, code: string): Verdict => ({ decision: 'ask', risk, code })
const refuse: Verdict = { decision: 'refuse' }
const invalid = (problem: RegExp): Expected => ({ decision: 'invalid', problem })

type Workspace = 'project' | 'home' | 'scratch'
type Case = [
  name: string,
  tool: string,
  args: Record<string, unknown>,
  expected: Expected,
  workspace?: Workspace
]

const DATA = 'Library/Application Support/DeepChat'
const SPILL = `${DATA}/sessions/session-1/tool_out.txt`

const CASES: Case[] = [
  // inside, relative and absolute
  ['a relative file inside', 'read', { path: 'src/a.ts' }, allow],
  ['an absolute file inside', 'read', { path: '<project>/src/a.ts' }, allow],
  ['a new file inside', 'write', { path: 'src/new.ts' }, allow],
  ['a new file in new folders inside', 'write', { path: 'deep/new/dir/f.ts' }, allow],
  ['a path that climbs and comes back', 'read', { path: './src/../src/a.ts' }, allow],
  ['~ leading into the workspace', 'read', { path: '~/project/src/a.ts' }, allow],
  ['a file below a regular file (ENOTDIR counts as missing)', 'write', { path: 'src/a.ts/child' }, allow],
  // .. escapes
  ['a ../ read escape', 'read', { path: '../notes/todo.md' }, ask('medium', 'outside_workspace_read')],
  ['a ../ write escape', 'write', { path: '../notes/todo.md' }, ask('high', 'outside_workspace_write')],
  [
    'a deeper ../ escape',
    'read',
    { path: 'src/../../notes/todo.md' },
    ask('medium', 'outside_workspace_read')
  ],
  [
    'an absolute path outside',
    'read',
    { path: '<root>/outside/secret.txt' },
    ask('medium', 'outside_workspace_read')
  ],
  // ~ forms
  ['~/notes', 'read', { path: '~/notes/todo.md' }, ask('medium', 'outside_workspace_read')],
  ['~ alone as a search root', 'glob', { pattern: '*', path: '~' }, ask('medium', 'outside_workspace_read')],
  ['a sensitive read under ~', 'read', { path: '~/.ssh/id_rsa' }, ask('high', 'outside_workspace_read')],
  ['a sensitive write under ~', 'write', { path: '~/.bashrc' }, ask('critical', 'outside_workspace_write')],
  // symlinked files and folders
  ['a symlinked file pointing in', 'read', { path: 'link-in' }, allow],
  [
    'a symlinked file pointing out (read)',
    'read',
    { path: 'link-out' },
    ask('medium', 'outside_workspace_read')
  ],
  [
    'a symlinked file pointing out (write)',
    'write',
    { path: 'link-out' },
    ask('high', 'outside_workspace_write')
  ],
  ['a file in a symlinked folder pointing in', 'read', { path: 'dir-in/a.ts' }, allow],
  ['a new file in a symlinked folder pointing in', 'write', { path: 'dir-in/new.ts' }, allow],
  [
    'a file in a symlinked folder pointing out',
    'read',
    { path: 'dir-out/secret.txt' },
    ask('medium', 'outside_workspace_read')
  ],
  [
    'a new file under a symlinked folder pointing out',
    'write',
    { path: 'dir-out/brand/new.txt' },
    ask('high', 'outside_workspace_write')
  ],
  ['an outside path whose real path is inside', 'write', { path: '<root>/src-alias/b.ts' }, allow],
  // dangling links
  [
    'a write through a dangling link pointing out',
    'write',
    { path: 'dangling-out' },
    ask('high', 'outside_workspace_write')
  ],
  [
    'a read through a dangling link pointing out',
    'read',
    { path: 'dangling-out' },
    ask('medium', 'outside_workspace_read')
  ],
  [
    'an edit through a dangling link pointing out',
    'edit',
    { path: 'dangling-out', old_string: 'a', new_string: 'b' },
    ask('high', 'outside_workspace_write')
  ],
  ['a write through a dangling relative link pointing in', 'write', { path: 'dangling-in' }, allow],
  [
    'a write below a dangling intermediate link',
    'write',
    { path: 'dangling-dir/sub/file.txt' },
    ask('high', 'outside_workspace_write')
  ],
  [
    'a write through a chain of two dangling links',
    'write',
    { path: 'chain1' },
    ask('high', 'outside_workspace_write')
  ],
  [
    'a write through a dangling link into .git',
    'write',
    { path: 'dangling-hook' },
    ask('high', 'protected_path')
  ],
  // loops: unresolvable, fail closed even though the link sits inside
  ['a read of a two-link loop', 'read', { path: 'loop-a' }, ask('high', 'unresolvable_path')],
  ['a write below a self loop', 'write', { path: 'self-loop/x' }, ask('high', 'unresolvable_path')],
  // protected entries
  ['reading .git/config', 'read', { path: '.git/config' }, allow],
  ['writing .git/config', 'write', { path: '.git/config' }, ask('high', 'protected_path')],
  [
    'editing .git/config',
    'edit',
    { path: '.git/config', old_string: 'a', new_string: 'b' },
    ask('high', 'protected_path')
  ],
  ['a new git hook', 'write', { path: '.git/hooks/post-checkout' }, ask('high', 'protected_path')],
  ['a new .vscode/tasks.json', 'write', { path: '.vscode/tasks.json' }, ask('high', 'protected_path')],
  ['a new .envrc', 'write', { path: '.envrc' }, ask('high', 'protected_path')],
  ['a new .deepchat skill', 'write', { path: '.deepchat/skills/x/SKILL.md' }, ask('high', 'protected_path')],
  ['a new .idea file', 'write', { path: '.idea/workspace.xml' }, ask('high', 'protected_path')],
  ['a nested repository config', 'write', { path: 'sub/.git/config' }, ask('high', 'protected_path')],
  [
    'a symlink inside pointing at .git/config',
    'write',
    { path: 'link-git-config' },
    ask('high', 'protected_path')
  ],
  ['a name that only starts like a protected one', 'write', { path: '.github/workflows/ci.yml' }, allow],
  // the app's data folder, inside a workspace that is home
  ['the database, read', 'read', { path: `${DATA}/db.sqlite` }, ask('critical', 'app_data'), 'home'],
  ['the database, written', 'write', { path: `${DATA}/db.sqlite` }, ask('critical', 'app_data'), 'home'],
  [
    'the data folder as a grep root',
    'grep',
    { pattern: 'x', path: DATA },
    ask('critical', 'app_data'),
    'home'
  ],
  [
    'the data folder through a link in the project',
    'read',
    { path: 'link-data/db.sqlite' },
    ask('critical', 'app_data')
  ],
  [
    'the data folder from outside the workspace',
    'read',
    { path: `~/${DATA}/db.sqlite` },
    ask('critical', 'app_data')
  ],
  ["the session's own spilled output, read", 'read', { path: SPILL }, allow, 'home'],
  [
    "the session's own spilled output, written",
    'write',
    { path: SPILL },
    ask('critical', 'app_data'),
    'home'
  ],
  [
    "another session's spilled output",
    'read',
    { path: `${DATA}/sessions/other-session/tool_out.txt` },
    ask('critical', 'app_data'),
    'home'
  ],
  [
    'a scratch workspace inside a home workspace',
    'read',
    { path: `${DATA}/scratch/chat-1/notes.md` },
    allow,
    'home'
  ],
  ['a file in the scratch workspace itself', 'write', { path: 'notes.md' }, allow, 'scratch'],
  [
    'the database from a scratch workspace',
    'read',
    { path: '../../db.sqlite' },
    ask('critical', 'app_data'),
    'scratch'
  ],
  ['a search of the whole home workspace', 'glob', { pattern: '**/*.json' }, allow, 'home'],
  // the secrets file: refused, never asked
  ['the secrets file, read', 'read', { path: `${DATA}/secrets.json` }, refuse, 'home'],
  ['the secrets file, written', 'write', { path: `${DATA}/secrets.json` }, refuse, 'home'],
  [
    'the secrets file, edited',
    'edit',
    { path: `${DATA}/secrets.json`, old_string: 'a', new_string: 'b' },
    refuse,
    'home'
  ],
  [
    'the secrets file as a grep target',
    'grep',
    { pattern: 'sk-', path: `${DATA}/secrets.json` },
    refuse,
    'home'
  ],
  ["the secrets file's temporary copy", 'write', { path: `${DATA}/secrets.json.tmp` }, refuse, 'home'],
  ['the secrets file through a symlink', 'read', { path: 'link-secrets' }, refuse],
  ['the secrets file through a hard link', 'read', { path: 'hard-secrets' }, refuse],
  ['the secrets file from outside the workspace', 'read', { path: `~/${DATA}/secrets.json` }, refuse],
  // validation
  ['a NUL byte', 'read', { path: 'a\0b' }, invalid(/NUL byte/)],
  ['an empty path', 'write', { path: '', content: 'x' }, invalid(/empty/)],
  ['a whitespace-only path', 'read', { path: '   ' }, invalid(/empty/)],
  [
    'a path over 4096 characters',
    'write',
    { path: 'a/'.repeat(2049), content: 'x' },
    invalid(/longer than 4096/)
  ],
  [
    'a name over 255 bytes',
    'read',
    { path: `${'n'.repeat(256)}.txt` },
    invalid(/name longer than 255 bytes/)
  ],
  ['a newline in a path', 'read', { path: 'a\nb' }, invalid(/control character \(U\+000A\)/)],
  ['a NUL byte in a glob root', 'glob', { pattern: '*', path: 'src\0' }, invalid(/NUL byte/)],
  ['an empty grep path', 'grep', { pattern: 'x', path: '' }, invalid(/empty/)],
  ['a NUL byte in an exec cwd', 'exec', { command: 'ls', cwd: 'src\0' }, invalid(/NUL byte/)]
]

let h: Harness
let project: string
const workspaces = (): Record<Workspace, string> => ({
  project,
  home: h.home,
  scratch: join(h.dataDir, 'scratch', 'chat-1')
})

beforeAll(() => {
  h = createHarness({ appData: true })
  project = join(h.home, 'project')
  const secrets = h.appData!.secretsFiles[0]
  const files: Record<string, string> = {
    [join(project, 'src/a.ts')]: 'a',
    [join(project, '.git/config')]: '[core]',
    [join(project, '.git/hooks/.keep')]: '',
    [join(project, 'sub/.git/config')]: '[core]',
    [join(h.home, 'notes/todo.md')]: 'todo',
    [join(h.home, '.ssh/id_rsa')]: 'key',
    [join(h.home, '.bashrc')]: 'export A=1',
    [join(h.root, 'outside/secret.txt')]: 'secret',
    [join(h.dataRoot, 'session-1/tool_out.txt')]: 'spilled',
    [join(h.dataRoot, 'other-session/tool_out.txt')]: 'other',
    [join(h.dataDir, 'scratch/chat-1/notes.md')]: 'scratch'
  }
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, content)
  }
  const links: [target: string, link: string][] = [
    [join(project, 'src/a.ts'), 'link-in'],
    [join(h.home, 'notes/todo.md'), 'link-out'],
    [join(project, 'src'), 'dir-in'],
    [join(h.root, 'outside'), 'dir-out'],
    [join(h.home, '.bashrc-new'), 'dangling-out'],
    ['new-target.txt', 'dangling-in'],
    [join(h.root, 'outside/not-yet'), 'dangling-dir'],
    ['chain2', 'chain1'],
    [join(h.root, 'outside/far.txt'), 'chain2'],
    ['.git/hooks/pre-commit', 'dangling-hook'],
    ['loop-b', 'loop-a'],
    ['loop-a', 'loop-b'],
    ['self-loop', 'self-loop'],
    [join(project, '.git/config'), 'link-git-config'],
    [secrets, 'link-secrets'],
    [h.dataDir, 'link-data']
  ]
  for (const [target, link] of links) symlinkSync(target, join(project, link))
  symlinkSync(join(project, 'src'), join(h.root, 'src-alias'))
  linkSync(secrets, join(project, 'hard-secrets'))
})
afterAll(async () => {
  await h.close()
})

/** What the pipeline did with a call: like Expected, but an invalid call carries its message. */
type Outcome = Verdict | { decision: 'invalid'; message: string }

async function decide(
  tool: string,
  args: Record<string, unknown>,
  workspace: Workspace,
  mode: PermissionMode = 'default'
): Promise<Outcome> {
  const call = { id: `c-${tool}`, name: tool, arguments: JSON.stringify(fill(tool, args)) }
  try {
    const verdict = await h.tools.preCheckToolPermission(call, {
      ...h.ctx,
      workspaceDir: workspaces()[workspace],
      permissionMode: mode
    })
    if (verdict.status === 'allowed') return allow
    if (verdict.status === 'denied') throw new Error(`unexpected denial: ${verdict.reason}`)
    return /secrets file; no tool may read or change it/.test(verdict.message)
      ? refuse
      : { decision: 'invalid', message: verdict.message }
  } catch (error) {
    if (!(error instanceof PermissionRequiredError)) throw error
    return ask(error.request.risk, error.request.reasonCodes?.[0]?.code ?? '')
  }
}

/** Real paths for the placeholders, and the content a write needs. */
function fill(tool: string, args: Record<string, unknown>): Record<string, unknown> {
  const out = { ...args }
  if (typeof out.path === 'string')
    out.path = out.path.replace('<project>', project).replace('<root>', h.root)
  if (tool === 'write' && out.content === undefined) out.content = 'x'
  return out
}

describe('the file boundary, path by path', () => {
  it('has at least 40 cases', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40)
  })

  it.each(CASES)('%s (%s)', async (_name, tool, args, expected, workspace = 'project') => {
    const actual = await decide(tool, args, workspace)
    if (expected.decision !== 'invalid') return expect(actual).toEqual(expected)
    expect(actual.decision).toBe('invalid')
    expect(actual).toMatchObject({ message: expect.stringMatching(/not a usable path/) })
    expect(actual).toMatchObject({ message: expect.stringMatching(expected.problem) })
  })
})

describe('modes below full access', () => {
  it.each(['default', 'accept_edits', 'sandboxed'] as const)(
    'still ask before writing a protected entry or the data folder in %s mode',
    async (mode) => {
      expect(await decide('write', { path: '.git/hooks/pre-push' }, 'project', mode)).toEqual(
        ask('high', 'protected_path')
      )
      expect(
        await decide(
          'edit',
          { path: '.vscode/settings.json', old_string: 'a', new_string: 'b' },
          'project',
          mode
        )
      ).toEqual(ask('high', 'protected_path'))
      expect(await decide('write', { path: `${DATA}/db.sqlite` }, 'home', mode)).toEqual(
        ask('critical', 'app_data')
      )
    }
  )

  it('full access writes protected entries without asking, but never reaches the secrets file', async () => {
    expect(await decide('write', { path: '.git/hooks/pre-push' }, 'project', 'full_access')).toEqual(allow)
    expect(await decide('write', { path: `${DATA}/secrets.json` }, 'home', 'full_access')).toEqual(refuse)
    expect(await decide('read', { path: 'hard-secrets' }, 'project', 'full_access')).toEqual(refuse)
  })
})

describe('resolving real paths fails closed', () => {
  it.each([
    ['a link loop', () => join(project, 'loop-a'), 'ELOOP'],
    ['a path below a link loop', () => join(project, 'self-loop', 'x'), 'ELOOP'],
    ['a name longer than the file system allows', () => join(project, 'n'.repeat(300)), 'ENAMETOOLONG']
  ])('classifies %s as unresolvable (%s)', (_name, path, code) => {
    expect(resolveRealPath(path())).toEqual({ ok: false, path: path(), error: code })
  })

  it('judges a dangling link at its target and a missing tail at its nearest existing parent', () => {
    expect(resolveRealPath(join(project, 'dangling-out'))).toEqual({
      ok: true,
      real: join(h.home, '.bashrc-new')
    })
    expect(resolveRealPath(join(project, 'dangling-dir', 'a', 'b'))).toEqual({
      ok: true,
      real: join(h.root, 'outside', 'not-yet', 'a', 'b')
    })
    expect(resolveRealPath(join(project, 'nope', 'deeper'))).toEqual({
      ok: true,
      real: join(project, 'nope', 'deeper')
    })
  })

  it('asks (high) for an over-long name inside the workspace instead of treating it as inside', () => {
    const service = new FilePermissionService(h.home)
    const path = join(project, 'n'.repeat(300))
    const request = service.check('write', [path], {
      sessionId: 's',
      workspaceDir: project,
      tool: 'write',
      server: 'agent-filesystem'
    })
    expect(request).toMatchObject({
      type: 'write',
      risk: 'high',
      paths: [path],
      reasonCodes: [{ code: 'unresolvable_path', params: { error: 'ENAMETOOLONG' } }]
    })
    expect(request?.suggestedRule).toBeUndefined()
  })

  it('asks (high) for a path whose parent is not searchable (EACCES), checked as an unprivileged user', () => {
    // Root ignores permissions, so when the tests run as root the check runs in a child process
    // under the `nobody` user; otherwise in this process.
    const base = realpathSync(mkdtempSync(join(tmpdir(), 'eacces-')))
    try {
      chmodSync(base, 0o755)
      const locked = join(base, 'ws', 'locked')
      mkdirSync(join(locked, 'inner'), { recursive: true })
      chmodSync(locked, 0o700)
      const request = checkAsUnprivileged(base, join(base, 'ws'), join(locked, 'inner', 'x'))
      expect(request).toMatchObject({
        risk: 'high',
        reasonCodes: [{ code: 'unresolvable_path', params: { error: 'EACCES' } }]
      })
    } finally {
      rmSync(base, { recursive: true, force: true })
    }
  })
})

function checkAsUnprivileged(home: string, workspace: string, path: string): unknown {
  const scope = { sessionId: 's', workspaceDir: workspace, tool: 'write', server: 'agent-filesystem' }
  if (process.getuid?.() !== 0) return new FilePermissionService(home).check('write', [path], scope)
  const script = join(home, 'probe.ts')
  const service = join(__dirname, '../../../src/main/presenter/permission/filePermissionService.ts')
  writeFileSync(
    script,
    `import { FilePermissionService } from ${JSON.stringify(service)}\n` +
      `console.log(JSON.stringify(new FilePermissionService(${JSON.stringify(home)}).check('write', [${JSON.stringify(path)}], ${JSON.stringify(scope)})))\n`
  )
  chmodSync(script, 0o644)
  const tsx = join(__dirname, '../../../node_modules/tsx/dist/cli.mjs')
  const child = spawnSync(process.execPath, [tsx, script], {
    uid: 65534,
    gid: 65534,
    encoding: 'utf8',
    cwd: join(__dirname, '../../..')
  })
  if (child.status !== 0) throw new Error(`probe failed: ${child.stderr || child.error}`)
  return JSON.parse(child.stdout)
}
