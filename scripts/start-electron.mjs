// `npm start`: make sure Electron has a better-sqlite3 built for its own ABI (electronNative.mjs),
// then launch the built app with it.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { ensureElectronSqlite } from './electronNative.mjs'

const root = join(import.meta.dirname, '..')
if (!ensureElectronSqlite()) process.exit(1)
const electron = createRequire(join(root, 'package.json'))('electron') // the binary's path (downloaded on first use)
const child = spawn(electron, [root, ...process.argv.slice(2)], { stdio: 'inherit' })
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)))
