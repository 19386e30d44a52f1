import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildProfile, toolchainFolders } from '../../../src/main/presenter/sandbox/profile'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

describe.skipIf(process.platform === 'win32')('sandbox profile (POSIX paths)', () => {
  it('widens known toolchain layouts under home to their root, keeps ~/bin itself, and ignores entries outside hidden folders', () => {
    const home = realpathSync(tempDir())
    const dirs = [
      '.nvm/versions/node/v20/bin',
      '.pyenv/shims',
      '.cargo/bin',
      '.rustup',
      'bin',
      'project/node_modules/.bin'
    ].map((d) => join(home, d))
    for (const dir of dirs) mkdirSync(dir, { recursive: true })
    const pathEnv = [
      ...dirs.filter((d) => !d.endsWith('.rustup')),
      '/usr/bin',
      join(home, 'missing/bin')
    ].join(':')
    const targets = toolchainFolders(pathEnv, [home], join(home, 'project')).map((bind) => bind.target)
    expect(targets.sort()).toEqual(
      [
        join(home, '.nvm/versions/node/v20'),
        join(home, '.pyenv'),
        join(home, '.cargo'),
        join(home, '.rustup'),
        join(home, 'bin')
      ].sort()
    )
  })

  it('shows ~/.local/bin with its Python packages only, never the rest of ~/.local, and home itself never', () => {
    const home = realpathSync(tempDir())
    for (const dir of [
      '.local/bin',
      '.local/lib/python3.12/site-packages',
      '.local/lib/other',
      '.local/share/x'
    ])
      mkdirSync(join(home, dir), { recursive: true })
    mkdirSync(join(home, '.local/state'))
    const targets = (pathEnv: string): string[] =>
      toolchainFolders(pathEnv, [home], join(home, 'project'))
        .map((bind) => bind.target)
        .sort()
    expect(targets(`${join(home, '.local/bin')}:${home}:/usr/bin`)).toEqual([
      join(home, '.local/bin'),
      join(home, '.local/lib/python3.12')
    ])
    // An unknown bin folder is shown alone, whatever its parent holds.
    mkdirSync(join(home, 'tools/app/bin'), { recursive: true })
    expect(targets(join(home, 'tools/app/bin'))).toEqual([join(home, 'tools/app/bin')])
    // A virtualenv's bin runs its root's lib.
    mkdirSync(join(home, 'venv/bin'), { recursive: true })
    writeFileSync(join(home, 'venv/pyvenv.cfg'), 'home = /usr/bin\n')
    expect(targets(join(home, 'venv/bin'))).toEqual([join(home, 'venv')])
    // macOS's user Python and yarn's global bin bring their packages, nothing else.
    for (const dir of [
      'Library/Python/3.12/bin',
      'Library/Python/3.12/lib',
      'Library/Keychains',
      '.yarn/bin'
    ])
      mkdirSync(join(home, dir), { recursive: true })
    mkdirSync(join(home, '.config/yarn/global/node_modules'), { recursive: true })
    expect(targets(`${join(home, 'Library/Python/3.12/bin')}:${join(home, '.yarn/bin')}`)).toEqual(
      [join(home, 'Library/Python/3.12'), join(home, '.yarn/bin'), join(home, '.config/yarn/global')].sort()
    )
  })

  it('shows a PATH entry spelled through a symlink into a hidden folder at that spelling (NixOS /run/current-system)', () => {
    const root = realpathSync(tempDir())
    const store = join(root, 'nix', 'store', 'abc-system', 'sw')
    mkdirSync(join(store, 'bin'), { recursive: true })
    const run = join(root, 'run')
    mkdirSync(run)
    symlinkSync(join(root, 'nix', 'store', 'abc-system'), join(run, 'current-system'))
    expect(toolchainFolders(join(run, 'current-system', 'sw', 'bin'), [run], join(root, 'ws'))).toEqual([
      { source: store, target: join(run, 'current-system', 'sw') }
    ])
  })

  it('makes a writable workspace read-only when a protected entry is a symlink (it could be swapped for a new file)', () => {
    const root = realpathSync(tempDir())
    const ws = join(root, 'ws')
    mkdirSync(join(ws, 'real-git'), { recursive: true })
    symlinkSync(join(ws, 'real-git'), join(ws, '.git'))
    const profile = buildProfile(
      { workspaceDir: ws, writableWorkspace: true },
      { home: join(root, 'home'), privateDirs: [] }
    )
    expect(profile).toMatchObject({ writableWorkspace: false, protectedExisting: [], protectedMissing: [] })
  })

  it('masks secrets only where they would be visible: in the workspace, not in the hidden home', () => {
    const root = realpathSync(tempDir())
    const home = join(root, 'home')
    mkdirSync(join(home, '.ssh'), { recursive: true })
    writeFileSync(join(home, '.netrc'), 'x')
    mkdirSync(join(home, 'project'))
    const inProject = buildProfile(
      { workspaceDir: join(home, 'project'), writableWorkspace: false },
      { home, privateDirs: [] }
    )
    expect(inProject).toMatchObject({ home, maskedDirs: [], maskedFiles: [] })
    const atHome = buildProfile({ workspaceDir: home, writableWorkspace: false }, { home, privateDirs: [] })
    expect(atHome).toMatchObject({ maskedDirs: [join(home, '.ssh')], maskedFiles: [join(home, '.netrc')] })
  })
})
