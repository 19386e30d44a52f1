import { spawnSync } from 'node:child_process'
import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { FilePermissionRequiredError } from '../../../src/main/presenter/permission'
import { CommandPermissionService } from '../../../src/main/presenter/permission/commandPermissionService'
import { FilePermissionService } from '../../../src/main/presenter/permission/filePermissionService'
import {
  ToolError,
  type AgentTool,
  type ToolContext
} from '../../../src/main/presenter/toolPresenter/agentTools/defineTool'
import fg from 'fast-glob'
import {
  globIgnores,
  offLimitsPatterns
} from '../../../src/main/presenter/toolPresenter/agentTools/offLimits'
import { ripgrepArgs } from '../../../src/main/presenter/toolPresenter/agentTools/grep'
import {
  resolveBundledRipgrep,
  runRipgrep
} from '../../../src/main/presenter/toolPresenter/agentTools/ripgrep'
import { openVerified } from '../../../src/main/presenter/toolPresenter/agentTools/safeFile'
import { TEST_SECRET, createHarness, type Harness } from './helpers'
import { ShellCaptures } from '../../../src/main/presenter/toolPresenter/agentTools/shellChanges'

let h: Harness
afterEach(async () => {
  await h?.close()
})

function put(path: string, content = ''): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, content)
}

const errorCode = (result: Awaited<ReturnType<Harness['call']>>) => result.rawData.toolResult.error?.code

describe('dangling symlinks', () => {
  it('asks before writing through a dangling symlink that points outside, and writes nothing until allowed', async () => {
    h = createHarness()
    const target = join(h.home, '.bashrc-new')
    symlinkSync(target, join(h.workspace, 'link'))
    const error = await h.call('write', { path: 'link', content: 'alias ls=rm' }).catch((e) => e)
    expect(error).toBeInstanceOf(FilePermissionRequiredError)
    expect(error.request).toMatchObject({ type: 'write', risk: 'high', paths: [target] })
    expect(existsSync(target)).toBe(false)
    h.gate.decide(error.request, 'once')
    const result = await h.call('write', { path: 'link', content: 'approved' })
    expect(result.rawData.isError).toBe(false)
    expect(readFileSync(target, 'utf8')).toBe('approved')
  })

  it('asks before writing a protected entry and writes it once allowed', async () => {
    h = createHarness()
    put(join(h.workspace, '.git', 'config'), '[core]\n')
    const error = await h
      .call('edit', { path: '.git/config', old_string: '[core]', new_string: '[core]\n\tfsmonitor = evil' })
      .catch((e) => e)
    expect(error.request).toMatchObject({
      type: 'write',
      risk: 'high',
      reasonCodes: [{ code: 'protected_path' }]
    })
    h.gate.decide(error.request, 'once')
    expect(
      (
        await h.call('edit', {
          path: '.git/config',
          old_string: '[core]',
          new_string: '[core]\n\tbare = false'
        })
      ).rawData.isError
    ).toBe(false)
    expect(readFileSync(join(h.workspace, '.git', 'config'), 'utf8')).toContain('bare = false')
  })

  it('still refuses to write a link loop after the user allowed it, because its real place is unknown', async () => {
    h = createHarness()
    symlinkSync('loop', join(h.workspace, 'loop'))
    const error = await h.call('write', { path: 'loop', content: 'x' }).catch((e) => e)
    expect(error.request).toMatchObject({ risk: 'high', reasonCodes: [{ code: 'unresolvable_path' }] })
    h.gate.decide(error.request, 'once')
    const result = await h.call('write', { path: 'loop', content: 'x' })
    expect(result.rawData.toolResult.error).toMatchObject({
      code: 'unresolvable_path',
      message: expect.stringContaining('ELOOP')
    })
  })
})

/** A tool run by hand: checkPermission now, execute later, with what the gate allowed in between. */
function toolContext(): ToolContext {
  return {
    sessionId: h.ctx.sessionId,
    toolCallId: 'call-swap',
    workspaceDir: h.workspace,
    sessionDataDir: h.tools.sessionDataDir(h.ctx.sessionId),
    permissionMode: 'default',
    sandboxAvailable: false,
    runtime: h.runtime,
    files: new FilePermissionService(h.home),
    commands: new CommandPermissionService(h.home),
    processes: h.tools.processes,
    shellCaptures: new ShellCaptures()
  }
}

async function checkSwapRun(name: string, args: Record<string, unknown>, swap: () => void): Promise<unknown> {
  const tool = h.tools.agentTools.get(name) as AgentTool
  const ctx = toolContext()
  const parsed = tool.input.parse(args)
  const approved = tool.checkPermission(parsed, ctx)
  swap()
  return tool.execute(parsed, { ...ctx, approved }).catch((e) => e)
}

/** Replaces `path` with a symlink to `target`. */
function swapForLink(path: string, target: string): void {
  rmSync(path, { recursive: true, force: true })
  symlinkSync(target, path)
}

describe('a link swapped in after the permission check', () => {
  it.each([
    ['write over an existing file', 'write', { path: 'f.txt', content: 'pwned' }],
    ['edit', 'edit', { path: 'f.txt', old_string: 'original', new_string: 'pwned' }]
  ])('is refused by %s, and the outside file keeps its content', async (_name, tool, args) => {
    h = createHarness()
    const outside = join(h.root, 'outside.txt')
    writeFileSync(outside, 'original')
    writeFileSync(join(h.workspace, 'f.txt'), 'original')
    const error = await checkSwapRun(tool, args, () => swapForLink(join(h.workspace, 'f.txt'), outside))
    expect(error).toBeInstanceOf(ToolError)
    expect(error).toMatchObject({ code: 'path_changed', message: expect.stringContaining(outside) })
    expect(readFileSync(outside, 'utf8')).toBe('original')
    expect(h.runtime.snapshots).toEqual([])
  })

  it('is refused for a new file whose name became a dangling link to outside', async () => {
    h = createHarness()
    const outside = join(h.root, 'created-outside.txt')
    const error = await checkSwapRun('write', { path: 'new.txt', content: 'x' }, () =>
      symlinkSync(outside, join(h.workspace, 'new.txt'))
    )
    expect(error).toMatchObject({ code: 'path_changed' })
    expect(existsSync(outside)).toBe(false)
  })

  it('is refused when a parent folder is swapped for a link to outside', async () => {
    h = createHarness()
    put(join(h.root, 'elsewhere', 'f.txt'), 'original')
    put(join(h.workspace, 'dir', 'f.txt'), 'original')
    const error = await checkSwapRun('write', { path: 'dir/f.txt', content: 'pwned' }, () =>
      swapForLink(join(h.workspace, 'dir'), join(h.root, 'elsewhere'))
    )
    expect(error).toMatchObject({ code: 'path_changed' })
    expect(readFileSync(join(h.root, 'elsewhere', 'f.txt'), 'utf8')).toBe('original')
  })

  it('is refused by read, which returns nothing of the outside file', async () => {
    h = createHarness()
    writeFileSync(join(h.root, 'secret.txt'), 'top secret')
    writeFileSync(join(h.workspace, 'r.txt'), 'harmless')
    const result = await checkSwapRun('read', { path: 'r.txt' }, () =>
      swapForLink(join(h.workspace, 'r.txt'), join(h.root, 'secret.txt'))
    )
    expect(result).toBeInstanceOf(ToolError)
    expect(result).toMatchObject({ code: 'path_changed', message: expect.not.stringContaining('top secret') })
  })

  it('is refused when an approved outside target is swapped for another outside file', async () => {
    h = createHarness()
    writeFileSync(join(h.root, 'approved.txt'), 'a')
    writeFileSync(join(h.root, 'other.txt'), 'b')
    symlinkSync(join(h.root, 'approved.txt'), join(h.workspace, 'l'))
    const error = await checkSwapRun('write', { path: 'l', content: 'pwned' }, () =>
      swapForLink(join(h.workspace, 'l'), join(h.root, 'other.txt'))
    )
    expect(error).toMatchObject({
      code: 'path_changed',
      message: expect.stringContaining(join(h.root, 'other.txt'))
    })
    expect(readFileSync(join(h.root, 'other.txt'), 'utf8')).toBe('b')
  })

  it('writes an approved outside target that did not change', async () => {
    h = createHarness()
    writeFileSync(join(h.root, 'approved.txt'), 'a')
    symlinkSync(join(h.root, 'approved.txt'), join(h.workspace, 'l'))
    const result = await checkSwapRun('write', { path: 'l', content: 'new' }, () => undefined)
    expect(result).toMatchObject({ ok: true })
    expect(readFileSync(join(h.root, 'approved.txt'), 'utf8')).toBe('new')
  })

  // The last line of defence, for a swap between the run-time check and the open itself.
  it('is caught at open: a final link is not followed, and a swapped parent folder is noticed', async () => {
    h = createHarness()
    const real = join(h.workspace, 'dir', 'f.txt')
    put(real, 'original')
    put(join(h.root, 'elsewhere', 'f.txt'), 'original')
    renameSync(real, join(h.workspace, 'dir', 'moved.txt'))
    symlinkSync(join(h.root, 'elsewhere', 'f.txt'), real)
    await expect(openVerified(real, 'dir/f.txt', 'update')).rejects.toMatchObject({ code: 'path_changed' })
    rmSync(real)
    renameSync(join(h.workspace, 'dir', 'moved.txt'), real)
    swapForLink(join(h.workspace, 'dir'), join(h.root, 'elsewhere'))
    await expect(openVerified(real, 'dir/f.txt', 'update')).rejects.toMatchObject({ code: 'path_changed' })
    // A file created through the swapped folder is removed again.
    await expect(
      openVerified(join(h.workspace, 'dir', 'new.txt'), 'dir/new.txt', 'create')
    ).rejects.toMatchObject({ code: 'path_changed' })
    expect(existsSync(join(h.root, 'elsewhere', 'new.txt'))).toBe(false)
    expect(readFileSync(join(h.root, 'elsewhere', 'f.txt'), 'utf8')).toBe('original')
  })
})

describe('special files', () => {
  it('refuses to read a named pipe instead of hanging on it', async () => {
    h = createHarness()
    const made = spawnSync('mkfifo', [join(h.workspace, 'pipe')])
    expect(made.status).toBe(0)
    expect(errorCode(await h.call('read', { path: 'pipe' }))).toBe('not_a_file')
  })

  it('gives a validation error for a path with a NUL byte', async () => {
    h = createHarness()
    const result = await h.call('read', { path: 'a\0b' })
    expect(result.rawData.toolResult.error).toEqual({
      code: 'invalid_arguments',
      message: expect.stringContaining('path: not a usable path: contains a NUL byte')
    })
  })
})

describe('the app data folder inside a workspace that is the home folder', () => {
  function homeHarness() {
    h = createHarness({ appData: true })
    h.ctx.workspaceDir = h.home
    put(join(h.home, 'notes.txt'), `NEEDLE in notes\n`)
    put(join(h.dataDir, 'logs', 'app.log'), 'NEEDLE in the app log\n')
    put(join(h.tools.sessionDataDir(h.ctx.sessionId), 'tool_1.txt'), 'NEEDLE in spilled output\n')
    return { secrets: h.appData!.secretsFiles[0], data: 'Library/Application Support/DeepChat' }
  }

  it('refuses read, write and edit of the secrets file with a clear message, in any mode', async () => {
    const { secrets, data } = homeHarness()
    const before = readFileSync(secrets, 'utf8')
    for (const mode of ['default', 'full_access'] as const) {
      const results = [
        await h.call('read', { path: `${data}/secrets.json` }, { permissionMode: mode }),
        await h.call('write', { path: `${data}/secrets.json`, content: '{}' }, { permissionMode: mode }),
        await h.call(
          'edit',
          { path: `~/${data}/secrets.json`, old_string: 'sk', new_string: 'x' },
          { permissionMode: mode }
        )
      ]
      for (const result of results) {
        expect(result.rawData.toolResult.error).toMatchObject({
          code: 'secrets_file',
          message: expect.stringContaining("DeepChat Desk's secrets file; no tool may read or change it")
        })
        expect(h.text(result)).not.toContain(TEST_SECRET)
      }
    }
    expect(readFileSync(secrets, 'utf8')).toBe(before)
  })

  it('refuses the secrets file reached through a hard link in the workspace', async () => {
    const { secrets } = homeHarness()
    linkSync(secrets, join(h.home, 'innocent.json'))
    const result = await h.call('read', { path: 'innocent.json' })
    expect(errorCode(result)).toBe('secrets_file')
    expect(h.text(result)).not.toContain(TEST_SECRET)
  })

  it('grep over the home workspace shows neither the secrets nor the data folder, even through a hard link', async () => {
    const { secrets } = homeHarness()
    linkSync(secrets, join(h.home, 'innocent.json'))
    const found = await h.call('grep', { pattern: 'sk-test-[0-9a-f]+' })
    expect(found.rawData.toolResult).toMatchObject({ ok: true, data: { matches: [] } })
    expect(h.text(found)).not.toContain(TEST_SECRET)
    const broad = await h.call('grep', { pattern: 'NEEDLE|sk-', glob: '**/*' })
    expect(h.text(broad)).toContain('notes.txt')
    expect(h.text(broad)).not.toMatch(/app log|spilled output|DeepChat/)
  })

  // Each search has two checks; these prove the first (the walk skips the folder) on its own.
  it('ripgrep itself skips the data folder and the secrets file, even with a glob that would match them', async () => {
    homeHarness()
    const off = offLimitsPatterns(
      new FilePermissionService(h.home, { appData: h.appData }).offLimitsBelow(h.home),
      h.home
    )
    const input = {
      pattern: 'NEEDLE|sk-test',
      literal: false,
      case: 'smart' as const,
      context: 0,
      max_results: 100,
      glob: '**/*'
    }
    const outcome = await runRipgrep(
      await resolveBundledRipgrep(),
      ripgrepArgs(input, h.home, off),
      h.home,
      100
    )
    expect(outcome.matches.map((m) => m.path)).toEqual([join(h.home, 'notes.txt')])
  })

  it('the glob walk itself skips the data folder (a name with a space in it)', async () => {
    homeHarness()
    const off = offLimitsPatterns(
      new FilePermissionService(h.home, { appData: h.appData }).offLimitsBelow(h.home),
      h.home
    )
    const walked = await fg('**/*', { cwd: h.home, dot: true, ignore: globIgnores(off, fg.escapePath) })
    expect(walked).toContain('notes.txt')
    expect(walked.filter((f) => f.includes('DeepChat'))).toEqual([])
  })

  it("grep may search the session's own spilled output", async () => {
    homeHarness()
    const spill = h.tools.sessionDataDir(h.ctx.sessionId)
    expect(h.text(await h.call('grep', { pattern: 'NEEDLE', path: spill }))).toContain(
      'NEEDLE in spilled output'
    )
  })

  it('glob over the home workspace lists nothing from the data folder', async () => {
    homeHarness()
    const listed = (await h.call('glob', { pattern: '**/*', max_results: 1000 })).rawData.toolResult.data as {
      files: string[]
    }
    expect(listed.files).toContain('notes.txt')
    expect(listed.files.filter((f) => f.includes('DeepChat'))).toEqual([])
    const fuzzy = (await h.call('glob', { pattern: 'secrets' })).rawData.toolResult.data as {
      files: string[]
    }
    expect(fuzzy.files).toEqual([])
  })

  it('still lets the model read its spilled output and use a scratch workspace', async () => {
    homeHarness()
    const spill = join(h.tools.sessionDataDir(h.ctx.sessionId), 'tool_1.txt')
    expect(h.text(await h.call('read', { path: spill }))).toContain('NEEDLE in spilled output')
    const scratch = join(h.appData!.scratchRoot, 'chat-1')
    mkdirSync(scratch)
    expect(
      (await h.call('write', { path: 'draft.md', content: 'hi' }, { workspaceDir: scratch })).rawData.isError
    ).toBe(false)
    expect(readFileSync(join(scratch, 'draft.md'), 'utf8')).toBe('hi')
  })

  it('hides results below an off-limits folder or file, and the file temporary copies, and nothing else', () => {
    const off = offLimitsPatterns({ folders: ['/h/data'], files: ['/h/keys.json'] }, '/h')
    expect(['data/x', 'data', 'keys.json', 'keys.json.tmp'].filter(off.hides)).toEqual([
      'data/x',
      'data',
      'keys.json',
      'keys.json.tmp'
    ])
    expect(['data.txt', 'database/x', 'keys.jsonl', 'src/data/x'].filter(off.hides)).toEqual([])
  })
})
