// `npm run dist [-- electron-builder options]`: installers for this platform into release/.
//
// 1. Checks the Node version electron-builder's native rebuild (@electron/rebuild) asks for.
// 2. Builds the app (electron-vite).
// 3. Runs electron-builder (electron-builder.yml), which rebuilds better-sqlite3 for Electron in
//    node_modules before packing it. That rebuild replaces the system Node build the tests and
//    `npm run serve` load, so this script puts the Node build back afterwards, whatever happens.
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { desktopToolingProblem } from './desktopNode.mjs'

const root = join(import.meta.dirname, '..')
const require = createRequire(join(root, 'package.json'))

const problem = desktopToolingProblem(process.versions.node, 'Building installers')
if (problem) {
  console.error(problem)
  process.exit(1)
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

run(process.execPath, [
  join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js'),
  'build'
])

const nodeBinding = join(
  dirname(require.resolve('better-sqlite3/package.json')),
  'build',
  'Release',
  'better_sqlite3.node'
)
const backupDir = mkdtempSync(join(tmpdir(), 'deepchat-dist-'))
const backup = join(backupDir, 'better_sqlite3.node')
if (existsSync(nodeBinding)) copyFileSync(nodeBinding, backup)
let status
try {
  const cli = join(dirname(require.resolve('electron-builder/package.json')), 'cli.js')
  // Never publish from a developer machine; a release job passes --publish always itself.
  const args = process.argv.slice(2)
  if (!args.some((arg) => arg.startsWith('--publish') || arg === '-p')) args.push('--publish', 'never')
  status = spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: 'inherit' }).status ?? 1
} finally {
  if (existsSync(backup)) {
    copyFileSync(backup, nodeBinding)
    console.log('Restored the system Node build of better-sqlite3 (tests and npm run serve use it).')
  }
  rmSync(backupDir, { recursive: true, force: true })
}
if (status === 0) console.log('Installers are in release/.')
process.exit(status)
