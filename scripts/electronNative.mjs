// Electron runs on its own Node ABI. Tests and `npm run serve` use node_modules/better-sqlite3 as
// npm built it for the system Node; Electron gets its own copy in .electron-native/, built once
// per Electron version, which main loads in development runs (src/main/appResources.ts).
// Installers do not use this: electron-builder rebuilds the module inside the app (scripts/dist.mjs).
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(import.meta.dirname, '..')
const require = createRequire(join(root, 'package.json'))

export function electronVersion() {
  return JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version
}

/**
 * The Electron binary if it is installed, without triggering its download (Electron 45's
 * `require('electron')` downloads a missing binary on first use).
 */
export function installedElectronBinary() {
  const dir = dirname(require.resolve('electron/package.json'))
  const pathFile = join(dir, 'path.txt')
  if (!existsSync(pathFile)) return null
  const binary = process.env.ELECTRON_OVERRIDE_DIST_PATH
    ? join(process.env.ELECTRON_OVERRIDE_DIST_PATH, readFileSync(pathFile, 'utf8'))
    : join(dir, 'dist', readFileSync(pathFile, 'utf8'))
  return existsSync(binary) ? binary : null
}

function run(command, args, cwd) {
  const env = { ...process.env }
  // ~/.npmrc may point node-gyp at the system Node's headers; Electron needs its own.
  for (const key of Object.keys(env)) if (/^npm_config_nodedir$/i.test(key)) delete env[key]
  return (
    spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...env, npm_config_nodedir: '' } }).status === 0
  )
}

/** Makes sure .electron-native/better-sqlite3 is built for this Electron; false when it could not be. */
export function ensureElectronSqlite() {
  const version = electronVersion()
  const source = dirname(require.resolve('better-sqlite3/package.json'))
  const target = join(root, '.electron-native', 'better-sqlite3')
  const binding = join(target, 'build', 'Release', 'better_sqlite3.node')
  const stamp = join(target, '.electron-version')
  if (existsSync(binding) && existsSync(stamp) && readFileSync(stamp, 'utf8') === version) return true
  console.log(`Building better-sqlite3 for Electron ${version} (once per Electron version)…`)
  rmSync(target, { recursive: true, force: true })
  cpSync(source, target, { recursive: true, filter: (path) => !path.includes(`${join(source, 'build')}`) })
  const prebuild = join(dirname(require.resolve('prebuild-install/package.json')), 'bin.js')
  const fetched = run(process.execPath, [prebuild, '--runtime', 'electron', '--target', version], target)
  if (!fetched) {
    const npmCli = process.env.npm_execpath
    const nodeGyp = npmCli
      ? join(dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js')
      : ''
    const built =
      existsSync(nodeGyp) &&
      run(
        process.execPath,
        [
          nodeGyp,
          'rebuild',
          '--release',
          '--runtime=electron',
          `--target=${version}`,
          '--dist-url=https://electronjs.org/headers'
        ],
        target
      )
    if (!built || !existsSync(binding)) {
      console.error(
        'Could not get better-sqlite3 for Electron: it needs network access to download a prebuilt binary or Electron headers.'
      )
      console.error('The headless app works without it: npm run serve')
      return false
    }
  }
  writeFileSync(stamp, version)
  return true
}

// `node scripts/electronNative.mjs` (npm run dev) prepares the module and exits.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exit(ensureElectronSqlite() ? 0 : 1)
