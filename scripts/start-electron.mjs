// `npm start`: make sure Electron has a better-sqlite3 built for its own ABI, then launch it.
//
// Tests and `npm run serve` run on the system Node and use node_modules/better-sqlite3 as
// installed. Electron embeds a different Node (another ABI), so it gets its own copy of the
// module in .electron-native/, built once per Electron version; main passes that file to
// better-sqlite3 as `nativeBinding` (src/main/electron/electronPlatform.ts).
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { spawnSync, spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const root = join(import.meta.dirname, '..')
const require = createRequire(join(root, 'package.json'))
const electronVersion = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')).version
const source = dirname(require.resolve('better-sqlite3/package.json'))
const target = join(root, '.electron-native', 'better-sqlite3')
const binding = join(target, 'build', 'Release', 'better_sqlite3.node')
const stamp = join(target, '.electron-version')

function run(command, args, cwd) {
  const env = { ...process.env }
  // ~/.npmrc may point node-gyp at the system Node's headers; Electron needs its own.
  for (const key of Object.keys(env)) if (/^npm_config_nodedir$/i.test(key)) delete env[key]
  return spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...env, npm_config_nodedir: '' } }).status === 0
}

function ensureElectronSqlite() {
  if (existsSync(binding) && existsSync(stamp) && readFileSync(stamp, 'utf8') === electronVersion) return
  console.log(`Building better-sqlite3 for Electron ${electronVersion} (once per Electron version)…`)
  rmSync(target, { recursive: true, force: true })
  cpSync(source, target, { recursive: true, filter: (path) => !path.includes(`${join(source, 'build')}`) })
  const prebuild = join(dirname(require.resolve('prebuild-install/package.json')), 'bin.js')
  const fetched = run(process.execPath, [prebuild, '--runtime', 'electron', '--target', electronVersion], target)
  if (!fetched) {
    const npmCli = process.env.npm_execpath
    const nodeGyp = npmCli ? join(dirname(npmCli), '..', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js') : ''
    const built =
      existsSync(nodeGyp) &&
      run(
        process.execPath,
        [nodeGyp, 'rebuild', '--release', '--runtime=electron', `--target=${electronVersion}`, '--dist-url=https://electronjs.org/headers'],
        target
      )
    if (!built || !existsSync(binding)) {
      console.error('Could not get better-sqlite3 for Electron: it needs network access to download a prebuilt binary or Electron headers.')
      console.error('The headless app works without it: npm run serve')
      process.exit(1)
    }
  }
  writeFileSync(stamp, electronVersion)
}

ensureElectronSqlite()
const electron = require('electron') // the path of the Electron binary (downloaded on first use)
const child = spawn(electron, [root, ...process.argv.slice(2)], { stdio: 'inherit' })
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)))
