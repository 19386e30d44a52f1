// `npm run test:electron`: the Electron smoke test (test/electron/) against the built app.
// Where the Electron binary is not installed (machines without network access beyond the
// package registries) it prints one line and exits 0; everywhere else it builds the app, makes
// sure better-sqlite3 exists for Electron, and runs vitest under Xvfb when there is no display.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { ensureElectronSqlite, installedElectronBinary } from './electronNative.mjs'

const root = join(import.meta.dirname, '..')
const require = createRequire(join(root, 'package.json'))

const binary = installedElectronBinary()
if (!binary) {
  console.log(
    'test:electron skipped: the Electron binary is not installed (node_modules/electron/dist is missing; `npx install-electron` downloads it)'
  )
  process.exit(0)
}

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env })
  if (result.error) throw result.error
  return result.status ?? 1
}

const electronVite = join(dirname(require.resolve('electron-vite/package.json')), 'bin', 'electron-vite.js')
if (run(process.execPath, [electronVite, 'build']) !== 0) process.exit(1)
if (!ensureElectronSqlite()) process.exit(1)

const vitest = [
  join(dirname(require.resolve('vitest/package.json')), 'vitest.mjs'),
  'run',
  '--config',
  'vitest.electron.config.ts'
]
const env = { ...process.env, DEEPCHAT_ELECTRON_BINARY: binary }
const needsXvfb = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY
if (needsXvfb && spawnSync('xvfb-run', ['--help'], { stdio: 'ignore' }).error) {
  console.error('test:electron needs a display: install xvfb (apt-get install -y xvfb) or set DISPLAY')
  process.exit(1)
}
process.exit(
  needsXvfb ? run('xvfb-run', ['-a', process.execPath, ...vitest], env) : run(process.execPath, vitest, env)
)
