// Home by allowlist: inside the sandbox, home shows only the toolchain folders on PATH and the
// siblings their layout needs. `~/.local/bin` on PATH (Ubuntu's default) must not show the rest of
// `~/.local` (app data, keyrings, state), nor anything else in home.
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../helpers/tempDir'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'
import { makeWorld, managerFor, onLinux, run, type World } from './harness'

const tempDir = useTempDirs()
const PRIVATE = 'PRIVATE-HOME-DATA'

/** Private files all over home, and a pip-style Python tool and an npm-style node tool in ~/.local. */
async function homeWithLocal(): Promise<{ world: World; pythonLib: string; privateFiles: string[] }> {
  const world = makeWorld(tempDir())
  const home = world.home
  const local = join(home, '.local')
  const { stdout: version } = await execa('python3', [
    '-c',
    'import sys; print(f"python{sys.version_info[0]}.{sys.version_info[1]}")'
  ])
  const pythonLib = join(local, 'lib', version.trim())
  mkdirSync(join(pythonLib, 'site-packages'), { recursive: true })
  writeFileSync(join(pythonLib, 'site-packages', 'greetlib.py'), 'def hi():\n    print("python tool ran")\n')
  mkdirSync(join(local, 'bin'), { recursive: true })
  writeFileSync(join(local, 'bin', 'pytool'), '#!/usr/bin/env python3\nimport greetlib\ngreetlib.hi()\n')
  chmodSync(join(local, 'bin', 'pytool'), 0o755)
  const nodePackage = join(local, 'lib', 'node_modules', 'greet')
  mkdirSync(nodePackage, { recursive: true })
  writeFileSync(join(nodePackage, 'index.js'), 'module.exports = () => console.log("node tool ran")\n')
  writeFileSync(join(nodePackage, 'cli.js'), '#!/usr/bin/env node\nrequire("./index.js")()\n')
  chmodSync(join(nodePackage, 'cli.js'), 0o755)
  symlinkSync('../lib/node_modules/greet/cli.js', join(local, 'bin', 'nodetool'))
  const privateFiles = [
    '.local/share/x/data.txt',
    '.local/share/keyring-elsewhere/login.keyring',
    '.local/state/x/history',
    '.local/lib/other-app/cache.db',
    '.lesshst',
    '.wget-hsts',
    '.sqlite_history',
    '.config/some-app/token.txt',
    'notes.txt'
  ].map((file) => join(home, file))
  for (const file of privateFiles) {
    mkdirSync(join(file, '..'), { recursive: true })
    writeFileSync(file, `${PRIVATE} ${file}\n`)
  }
  return { world, pythonLib, privateFiles }
}

const lines = (text: string): string[] => text.split('\n').filter(Boolean).sort()

describe.skipIf(!onLinux || withoutBwrap)(
  'home by allowlist (Linux; bwrap is Linux-only)',
  NEEDS_BWRAP,
  () => {
    it('shows ~/.local/bin and its Python and node packages, and nothing else of ~/.local or home', async () => {
      const { world, pythonLib, privateFiles } = await homeWithLocal()
      const local = join(world.home, '.local')
      const manager = managerFor(world, { PATH: `${join(local, 'bin')}:${process.env.PATH}` })
      const plan = { workspaceDir: world.project, writableWorkspace: false }

      const tools = await run(manager, world, 'pytool && nodetool', plan)
      expect(tools.output).toBe('python tool ran\nnode tool ran\n')

      const read = await run(manager, world, privateFiles.map((file) => `cat ${file}`).join('; '), plan)
      expect(read.output).not.toContain(PRIVATE)
      expect(read.output.match(/No such file or directory/g)).toHaveLength(privateFiles.length)

      expect(lines((await run(manager, world, 'ls -A ~', plan)).output)).toEqual(['.local', 'project'])
      expect(lines((await run(manager, world, `ls -A ${local}`, plan)).output)).toEqual(['bin', 'lib'])
      expect(lines((await run(manager, world, `ls -A ${local}/lib`, plan)).output)).toEqual(
        ['node_modules', pythonLib.split('/').at(-1)].sort()
      )
    })

    it('shows nothing of ~/.local when its bin is not on PATH', async () => {
      const { world, privateFiles } = await homeWithLocal()
      const manager = managerFor(world, { PATH: process.env.PATH })
      const plan = { workspaceDir: world.project, writableWorkspace: true }
      const result = await run(
        manager,
        world,
        `ls -A ~; test -e ~/.local && echo LOCAL-VISIBLE; cat ${privateFiles.join(' ')}; pytool`,
        plan
      )
      expect(result.output).not.toContain(PRIVATE)
      expect(result.output).not.toContain('LOCAL-VISIBLE')
      expect(result.output).toMatch(/pytool: (command )?not found/)
      expect(result.output.split('\n')[0]).toBe('project')
    })

    it('never shows home itself when PATH names it, nor the parent of an unknown bin folder', async () => {
      const { world, privateFiles } = await homeWithLocal()
      const appBin = join(world.home, 'apps', 'thing', 'bin')
      mkdirSync(appBin, { recursive: true })
      writeFileSync(join(world.home, 'apps', 'thing', 'secret.txt'), `${PRIVATE} thing\n`)
      const manager = managerFor(world, { PATH: `${world.home}:${appBin}:${process.env.PATH}` })
      const plan = { workspaceDir: world.project, writableWorkspace: false }
      const result = await run(
        manager,
        world,
        `cat ${privateFiles.join(' ')} ${world.home}/apps/thing/secret.txt; ls -A ~/apps/thing`,
        plan
      )
      expect(result.output).not.toContain(PRIVATE)
      expect(result.output.trim().split('\n').at(-1)).toBe('bin')
    })
  }
)
