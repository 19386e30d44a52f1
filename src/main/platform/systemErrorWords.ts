import { existsSync } from 'node:fs'

/**
 * Plain words for the operating-system and network failures a user can act on: a command that
 * is not installed or not executable, a server that refuses the connection or is not running,
 * a name DNS cannot find. An allowlist of known causes (errno codes on the error or anywhere in
 * its `cause` chain); anything else returns undefined and the caller keeps its own message.
 */

interface SystemErrorFields {
  code?: unknown
  syscall?: unknown
  path?: unknown
  hostname?: unknown
  address?: unknown
  port?: unknown
  cause?: unknown
}

/** The first error in the cause chain (depth ≤ 5) that carries an errno-style code. */
function findCoded(error: unknown): (Error & SystemErrorFields) | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const fields = current as SystemErrorFields
    if (typeof fields.code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(fields.code))
      return current as Error & SystemErrorFields
    current = fields.cause
  }
  return undefined
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\]|0\.0\.0\.0)$/i

export function isLoopbackHost(host: string): boolean {
  return LOOPBACK.test(host)
}

/**
 * Why starting `command` failed, or undefined for a cause outside the allowlist. Node reports a
 * missing working folder as ENOENT too, so `cwd` is checked before blaming the command.
 */
export function describeSpawnError(
  command: string,
  error: unknown,
  options: { cwd?: string } = {}
): string | undefined {
  const coded = findCoded(error)
  switch (coded?.code) {
    case 'ENOENT':
      if (options.cwd && !existsSync(options.cwd)) return `Working folder not found: ${options.cwd}`
      return `Not found: ${command} (is it installed and on the PATH?)`
    case 'EACCES':
    case 'EPERM':
      return `Not executable: ${command} (check the file's permissions)`
    case 'ENOTDIR':
      return `Not found: ${command} (a part of its path is not a folder)`
    case 'E2BIG':
      return `Could not start ${command}: its arguments or environment are too long`
    default:
      return undefined
  }
}

/**
 * Why a connection to `url` (or to the address on the error) failed, or undefined for a cause
 * outside the allowlist. `localServerName` names what usually listens on a local address
 * (e.g. "Ollama"), for the "is it running?" hint.
 */
export function describeConnectionError(
  error: unknown,
  options: { url?: string; localServerName?: string } = {}
): string | undefined {
  const coded = findCoded(error)
  if (!coded) return undefined
  const target = targetOf(coded, options.url)
  const local = target.host !== undefined && isLoopbackHost(target.host)
  const where = target.host ? ` (${target.host}${target.port ? `:${target.port}` : ''})` : ''
  const code = String(coded.code)
  switch (code) {
    case 'ECONNREFUSED':
      return local
        ? `Nothing is listening at ${target.host}${target.port ? `:${target.port}` : ''}: is ${options.localServerName ?? 'the local server (such as Ollama or LM Studio)'} running?`
        : `The server refused the connection${where}. Check the address and port.`
    case 'ENOTFOUND':
      return `The server name${where} could not be found (DNS). Check the address and your connection.`
    case 'EAI_AGAIN':
      return `The server name${where} could not be looked up right now (DNS did not answer). Check your connection.`
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return `The connection${where} was closed by the other side.`
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `The server${where} did not answer in time. Check the address and your connection.`
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENETDOWN':
      return `The server${where} cannot be reached from this network. Check your connection.`
    default:
      if (/CERT|SELF_SIGNED|ERR_TLS/.test(code))
        return `The server's certificate${where} is not trusted (${code}).`
      return undefined
  }
}

function targetOf(error: SystemErrorFields, url: string | undefined): { host?: string; port?: string } {
  const host =
    typeof error.hostname === 'string'
      ? error.hostname
      : typeof error.address === 'string'
        ? error.address
        : undefined
  const port =
    typeof error.port === 'number' || typeof error.port === 'string' ? String(error.port) : undefined
  if (host) return { host, port }
  if (!url) return {}
  try {
    const parsed = new URL(url)
    return { host: parsed.hostname, port: parsed.port || undefined }
  } catch {
    return {}
  }
}
