import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import type { PermissionMode, PermissionRequest, RiskLevel } from '@shared/types/permission'
import type { AppDataBoundary } from '../../../src/main/presenter/permission/boundary'
import { CommandPermissionService } from '../../../src/main/presenter/permission/commandPermissionService'

/**
 * A real temp tree for the command suites:
 *
 *   root/ws            the workspace: src/a.ts, src/b.ts, notes.txt, package.json, .git/, .vscode/
 *     link-in          -> ws/src             (a link that stays inside)
 *     escape           -> root/outside       (a folder link leading out)
 *     linkout          -> root/outside/file.txt
 *     secretlink       -> home/.ssh/id_rsa
 *     dangling         -> root/outside/missing.txt      (target does not exist)
 *     danglingdir      -> root/nowhere                  (folder does not exist)
 *     gitlink          -> ws/.git            (a link into a protected entry)
 *     datalink         -> root/data          (a link into the app's data folder)
 *     inject/          files named like options: `--pre=sh`, `--checkpoint-action=exec=sh x.sh`
 *     many/            300 files (more than a glob may match)
 *   root/outside       file.txt
 *   root/home          the fake home: .ssh/id_rsa, .bashrc, notes/todo.md
 *   root/data          the app's data folder: secrets.json, deepchat.db, scratch/s1, scratch/s2
 */
export interface CommandFixture {
  root: string
  workspace: string
  home: string
  data: string
  appData: AppDataBoundary
  service: CommandPermissionService
  /** Replaces %ROOT%, %WS%, %HOME% and %DATA% in a line with the real folders. */
  fill(line: string): string
  check(
    line: string,
    mode?: PermissionMode,
    options?: { sandboxAvailable?: boolean; cwd?: string; workspace?: string }
  ): PermissionRequest | null
  cleanup(): void
}

export function createCommandFixture(): CommandFixture {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'cmdsuite-')))
  const workspace = join(root, 'ws')
  const home = join(root, 'home')
  const data = join(root, 'data')
  const outside = join(root, 'outside')
  for (const dir of [
    join(workspace, 'src'),
    join(workspace, '.git', 'hooks'),
    join(workspace, '.vscode'),
    join(workspace, 'inject'),
    join(workspace, 'many'),
    join(home, '.ssh'),
    join(home, 'notes'),
    outside,
    join(data, 'scratch', 's1'),
    join(data, 'scratch', 's2')
  ])
    mkdirSync(dir, { recursive: true })
  const files: Record<string, string> = {
    'ws/src/a.ts': 'export const a = 1\n',
    'ws/src/b.ts': 'export const b = 2\n',
    'ws/notes.txt': 'b\na\nb\n',
    'ws/package.json': '{"name":"x","scripts":{"test":"vitest"}}',
    'ws/.git/config': '[core]\n',
    'ws/.vscode/settings.json': '{}',
    'ws/inject/--pre=sh': '',
    'ws/inject/--checkpoint-action=exec=sh x.sh': '',
    'ws/inject/a.txt': 'foo',
    'outside/file.txt': 'outside',
    'secret.txt': 'not in the workspace',
    'home/.ssh/id_rsa': 'KEY',
    'home/.bashrc': '',
    'home/notes/todo.md': 'todo',
    'data/secrets.json': '{}',
    'data/deepchat.db': '',
    'data/scratch/s2/other.txt': 'other chat'
  }
  for (const [path, content] of Object.entries(files)) writeFileSync(join(root, path), content)
  for (let i = 0; i < 300; i++) writeFileSync(join(workspace, 'many', `f${i}.txt`), '')
  const links: Record<string, string> = {
    'link-in': join(workspace, 'src'),
    escape: outside,
    linkout: join(outside, 'file.txt'),
    secretlink: join(home, '.ssh', 'id_rsa'),
    dangling: join(outside, 'missing.txt'),
    danglingdir: join(root, 'nowhere'),
    gitlink: join(workspace, '.git'),
    datalink: data
  }
  for (const [name, target] of Object.entries(links)) symlinkSync(target, join(workspace, name))
  const appData: AppDataBoundary = {
    dataDir: data,
    secretsFiles: [join(data, 'secrets.json')],
    scratchRoot: join(data, 'scratch')
  }
  const service = new CommandPermissionService({ home, appData })
  const fill = (line: string): string =>
    line
      .replaceAll('%ROOT%', root)
      .replaceAll('%WS%', workspace)
      .replaceAll('%HOME%', home)
      .replaceAll('%DATA%', data)
  return {
    root,
    workspace,
    home,
    data,
    appData,
    service,
    fill,
    check: (line, mode = 'default', options = {}) => {
      const ws = options.workspace ?? workspace
      return service.check(
        fill(line),
        {
          sessionId: 's1',
          workspaceDir: ws,
          cwd: options.cwd ?? ws,
          tool: 'exec',
          server: 'agent-filesystem'
        },
        mode,
        options.sandboxAvailable ?? false
      )
    },
    cleanup: () => rmSync(root, { recursive: true, force: true })
  }
}

/** 'allow' = runs unasked; a risk level = asks with at least that risk. */
export type Expected = 'allow' | RiskLevel
/** [line, expected, a reason code the request must carry] */
export type Row = [line: string, expected: Expected, code?: string]

const ORDER: RiskLevel[] = ['low', 'medium', 'high', 'critical']

export function expectDecision(
  request: PermissionRequest | null,
  line: string,
  expected: Expected,
  code?: string
): void {
  if (expected === 'allow') {
    expect(
      request,
      `${line} should run unasked: ${JSON.stringify(request?.subCommands ?? request?.lineReasons)}`
    ).toBeNull()
    return
  }
  expect(request, `${line} should ask`).not.toBeNull()
  const got = request as PermissionRequest
  expect(ORDER.indexOf(got.risk), `${line}: got ${got.risk} (${got.reason})`).toBeGreaterThanOrEqual(
    ORDER.indexOf(expected)
  )
  if (code)
    expect(
      got.reasonCodes?.map((c) => c.code),
      `${line}: ${got.reason}`
    ).toContain(code)
}
