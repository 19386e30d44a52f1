import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FilePermissionService } from '../../../src/main/presenter/permission/filePermissionService'

let root: string
let workspace: string
let home: string
let outside: string
let service: FilePermissionService
const scope = () => ({
  sessionId: 's1',
  workspaceDir: workspace,
  sessionDataDir: join(root, 'data', 's1'),
  tool: 'read',
  server: 'agent-filesystem'
})

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'fileperm-')))
  workspace = join(root, 'ws')
  home = join(root, 'home')
  outside = join(root, 'outside')
  mkdirSync(join(workspace, 'src'), { recursive: true })
  mkdirSync(join(home, 'notes'), { recursive: true })
  mkdirSync(outside)
  mkdirSync(join(root, 'data', 's1'), { recursive: true })
  mkdirSync(join(root, 'data', 's2'), { recursive: true })
  writeFileSync(join(outside, 'secret.txt'), 'secret')
  writeFileSync(join(workspace, 'src', 'a.ts'), 'a')
  symlinkSync(join(outside, 'secret.txt'), join(workspace, 'link-to-secret'))
  symlinkSync(outside, join(workspace, 'linked-dir'))
  symlinkSync(join(workspace, 'src'), join(root, 'ws-src-link'))
  service = new FilePermissionService(home)
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('FilePermissionService', () => {
  it('allows reads and writes inside the workspace, relative or absolute', () => {
    expect(service.check('read', ['src/a.ts'], scope())).toBeNull()
    expect(service.check('write', [join(workspace, 'src', 'new.ts')], scope())).toBeNull()
    expect(service.check('write', ['deep/new/dir/file.ts'], scope())).toBeNull()
  })

  it('asks for a ../ escape and reports the resolved path', () => {
    const request = service.check('read', ['../outside/secret.txt'], scope())
    expect(request).toMatchObject({
      type: 'read',
      paths: [join(outside, 'secret.txt')],
      sessionId: 's1',
      tool: 'read'
    })
  })

  it('asks for a symlink inside the workspace that points outside, reporting the real path', () => {
    const request = service.check('read', ['link-to-secret'], scope())
    expect(request?.paths).toEqual([join(outside, 'secret.txt')])
  })

  it('asks for a file below a symlinked parent folder', () => {
    expect(service.check('read', ['linked-dir/secret.txt'], scope())?.paths).toEqual([
      join(outside, 'secret.txt')
    ])
  })

  it('checks a new file under a symlinked folder at its real parent', () => {
    const request = service.check('write', ['linked-dir/brand-new/file.txt'], scope())
    expect(request).toMatchObject({
      type: 'write',
      risk: 'high',
      paths: [join(outside, 'brand-new', 'file.txt')]
    })
  })

  it('allows a path outside the workspace whose real path is inside it', () => {
    expect(service.check('write', [join(root, 'ws-src-link', 'b.ts')], scope())).toBeNull()
  })

  it('expands ~ to the home folder and suggests a ~ rule', () => {
    const request = service.check('read', ['~/notes/todo.md'], scope())
    expect(request?.paths).toEqual([join(home, 'notes', 'todo.md')])
    expect(request?.suggestedRule).toEqual({ kind: 'read', pattern: '~/notes/todo.md', effect: 'allow' })
  })

  it('rates sensitive files higher', () => {
    expect(service.check('read', ['~/.ssh/id_rsa'], scope())?.risk).toBe('high')
    expect(service.check('write', ['~/.bashrc'], scope())?.risk).toBe('critical')
  })

  it('lets a session read its own data folder but not write it, and not read another session', () => {
    expect(service.check('read', [join(root, 'data', 's1', 'tool_x.txt')], scope())).toBeNull()
    expect(service.check('write', [join(root, 'data', 's1', 'tool_x.txt')], scope())).not.toBeNull()
    expect(service.check('read', [join(root, 'data', 's2', 'tool_x.txt')], scope())).not.toBeNull()
  })

  it('reads and writes are judged separately', () => {
    expect(service.check('read', ['~/notes/a'], scope())?.type).toBe('read')
    expect(service.check('write', ['~/notes/a'], scope())?.type).toBe('write')
  })

  it('makes one request for several kinds of path: the highest risk, one reason per kind, a rule only for a path worth remembering', () => {
    symlinkSync('loop', join(workspace, 'loop'))
    const request = service.check('write', ['loop', '~/notes/a.md', '.git/config'], scope())
    expect(request).toMatchObject({
      risk: 'high',
      paths: [join(home, 'notes', 'a.md'), join(workspace, '.git', 'config'), join(workspace, 'loop')].sort()
    })
    expect(request?.reasonCodes?.map((c) => c.code)).toEqual([
      'unresolvable_path',
      'protected_path',
      'outside_workspace_write'
    ])
    expect(request?.reason.split('; ')).toHaveLength(3)
    expect(request?.suggestedRule).toEqual({ kind: 'write', pattern: '~/notes/a.md', effect: 'allow' })
  })

  it('compares the app data boundary by real path when it is given through a symlink', () => {
    mkdirSync(join(root, 'real-data', 'scratch'), { recursive: true })
    writeFileSync(join(root, 'real-data', 'secrets.json'), '{}')
    symlinkSync(join(root, 'real-data'), join(root, 'data-link'))
    const guarded = new FilePermissionService(home, {
      appData: {
        dataDir: join(root, 'data-link'),
        secretsFiles: [join(root, 'data-link', 'secrets.json')],
        scratchRoot: join(root, 'data-link', 'scratch')
      }
    })
    expect(guarded.refusal([join(root, 'real-data', 'secrets.json')], scope())).toMatch(
      /secrets file; no tool may read or change it/
    )
    expect(guarded.check('read', [join(root, 'real-data', 'app.log')], scope())).toMatchObject({
      risk: 'critical',
      reasonCodes: [{ code: 'app_data' }]
    })
    expect(guarded.offLimitsBelow(root)).toEqual({ folders: [join(root, 'real-data')], files: [] })
  })
})
