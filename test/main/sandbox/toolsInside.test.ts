// Ordinary read-only work still runs inside the sandbox: listing, reading, searching with the
// real ripgrep, git in a real repository, node and a tiny package's npm test.
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { rgPath } from '@vscode/ripgrep'
import { describe, expect, it } from 'vitest'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'
import { useTempDirs } from '../helpers/tempDir'
import { makeWorld, managerFor, onLinux, run, SECRET_KEY_TEXT, type World } from './harness'

const tempDir = useTempDirs()

const gitEnv = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 't@example.com'
}

/** A project that is a git repository with one commit and one uncommitted change, and a tiny npm package. */
async function projectWorld(): Promise<World> {
  const world = makeWorld(tempDir())
  const ws = world.project
  writeFileSync(
    join(ws, 'package.json'),
    JSON.stringify({ name: 'tiny', version: '1.0.0', private: true, scripts: { test: 'node check.js' } })
  )
  writeFileSync(
    join(ws, 'check.js'),
    "const text = require('fs').readFileSync('readme.txt', 'utf8')\nif (!text.includes('hello')) process.exit(1)\nconsole.log('tiny tests passed')\n"
  )
  const git = (...args: string[]) =>
    execa('git', args, { cwd: ws, env: { ...process.env, ...gitEnv, HOME: world.home } })
  await git('init', '-q')
  await git('add', '.')
  await git('commit', '-q', '-m', 'first commit')
  writeFileSync(join(ws, 'readme.txt'), 'hello from the project, changed\n')
  return world
}

describe.skipIf(!onLinux || withoutBwrap)(
  'tools inside the sandbox (Linux; bwrap is Linux-only, macOS and Windows skip)',
  NEEDS_BWRAP,
  () => {
    for (const writableWorkspace of [false, true]) {
      const mode = writableWorkspace ? 'writable' : 'read-only'

      it(`runs ls, cat, ripgrep and node -e in a ${mode} workspace`, async () => {
        const world = await projectWorld()
        // ripgrep as a user installs it: in a toolchain folder on PATH under the (hidden) home.
        const userBin = join(world.home, '.local', 'bin')
        mkdirSync(userBin, { recursive: true })
        copyFileSync(rgPath, join(userBin, 'rg'))
        chmodSync(join(userBin, 'rg'), 0o755)
        const manager = managerFor(world, { PATH: `${userBin}:${process.env.PATH}` })
        const plan = { workspaceDir: world.project, writableWorkspace }
        expect((await run(manager, world, 'ls', plan)).output).toBe('check.js\npackage.json\nreadme.txt\n')
        expect((await run(manager, world, 'cat readme.txt', plan)).output).toBe(
          'hello from the project, changed\n'
        )
        const rg = await run(manager, world, 'rg --no-config -n changed', plan)
        expect(rg).toMatchObject({ exitCode: 0, output: 'readme.txt:1:hello from the project, changed\n' })
        const node = await run(
          manager,
          world,
          `node -e "process.stdout.write(require('fs').readFileSync('readme.txt', 'utf8').toUpperCase())"`,
          plan
        )
        expect(node).toMatchObject({ exitCode: 0, output: 'HELLO FROM THE PROJECT, CHANGED\n' })
      })

      it(`runs git status, log and diff in a real repository in a ${mode} workspace`, async () => {
        const world = await projectWorld()
        const manager = managerFor(world)
        const plan = { workspaceDir: world.project, writableWorkspace }
        const status = await run(manager, world, 'git status --short', plan)
        expect(status).toMatchObject({ exitCode: 0, output: ' M readme.txt\n' })
        const log = await run(manager, world, 'git log --format=%s', plan)
        expect(log).toMatchObject({ exitCode: 0, output: 'first commit\n' })
        const diff = await run(manager, world, 'git diff --no-color', plan)
        expect(diff.exitCode).toBe(0)
        expect(diff.output).toContain('+hello from the project, changed')
      })

      it(`runs a tiny package's npm test in a ${mode} workspace`, async () => {
        const world = await projectWorld()
        const result = await run(managerFor(world), world, 'npm test --no-update-notifier', {
          workspaceDir: world.project,
          writableWorkspace
        })
        expect(result.exitCode, result.output).toBe(0)
        expect(result.output).toContain('tiny tests passed')
      })
    }

    it('finds toolchains installed under home (nvm-style bin folders) but not the secrets next to them', async () => {
      const world = makeWorld(tempDir())
      const nodeHome = join(world.home, '.nvm', 'versions', 'node', 'v99.0.0')
      mkdirSync(join(nodeHome, 'bin'), { recursive: true })
      mkdirSync(join(nodeHome, 'lib'), { recursive: true })
      writeFileSync(join(nodeHome, 'lib', 'version.txt'), 'v99 toolchain\n')
      writeFileSync(join(nodeHome, 'bin', 'mytool'), '#!/bin/sh\ncat "$(dirname "$0")/../lib/version.txt"\n')
      chmodSync(join(nodeHome, 'bin', 'mytool'), 0o755)
      const cargo = join(world.home, '.cargo')
      mkdirSync(join(cargo, 'bin'), { recursive: true })
      writeFileSync(join(cargo, 'credentials.toml'), `token = "${SECRET_KEY_TEXT}"\n`)
      const manager = managerFor(world, {
        PATH: `${join(nodeHome, 'bin')}:${join(cargo, 'bin')}:${process.env.PATH}`
      })
      const plan = { workspaceDir: world.project, writableWorkspace: false }
      expect((await run(manager, world, 'mytool', plan)).output).toBe('v99 toolchain\n')
      const secrets = await run(manager, world, `cat ${cargo}/credentials.toml ~/.ssh/id_rsa`, plan)
      expect(secrets.output).not.toContain(SECRET_KEY_TEXT)
      expect((await run(manager, world, 'ls -A ~', plan)).output.split('\n').filter(Boolean).sort()).toEqual([
        '.cargo',
        '.nvm',
        'project'
      ])
    })
  }
)
