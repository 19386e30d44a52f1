import { resolve } from 'node:path'
import { homedir } from 'node:os'

export interface HostArgs {
  /** Absent: the port this data folder's host used last time (so open tabs reconnect), else any free one. */
  port?: number
  dataDir: string
}

/** `--port N` (0 = any free port) and `--data-dir DIR`; both also accept `--flag=value`. */
export function parseHostArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): HostArgs {
  const values = new Map<string, string>()
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (!arg.startsWith('--')) throw new Error(`unexpected argument: ${arg}`)
    const eq = arg.indexOf('=')
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq)
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1)
    if (!['port', 'data-dir'].includes(name))
      throw new Error(`unknown flag: --${name} (known: --port, --data-dir)`)
    if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`)
    values.set(name, value)
  }
  const given = values.get('port') ?? env.DEEPCHAT_PORT
  const port = given === undefined ? undefined : Number(given)
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) {
    throw new Error(`--port must be 0-65535, got ${given}`)
  }
  const dataDir = resolve(values.get('data-dir') ?? env.DEEPCHAT_DATA_DIR ?? defaultDataDir())
  return { ...(port === undefined ? {} : { port }), dataDir }
}

function defaultDataDir(): string {
  if (process.platform === 'darwin') return resolve(homedir(), 'Library/Application Support/deepchat-desk')
  if (process.platform === 'win32') return resolve(process.env.APPDATA ?? homedir(), 'deepchat-desk')
  return resolve(process.env.XDG_CONFIG_HOME ?? resolve(homedir(), '.config'), 'deepchat-desk')
}
