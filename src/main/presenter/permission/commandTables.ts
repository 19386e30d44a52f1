import type { CommandCategory } from '@shared/types/permission'
import { reasonOf, type Reason } from './reasonText'

/** A program's category and, when it is not plainly read-only, why. */
export interface Classified {
  category: CommandCategory
  reason?: Reason
}

/** Programs that only look at things, from the per-program table (which says why, and what changes that). */
export { READ_ONLY_PROGRAMS } from './readOnlyPrograms'

export const WRITING_PROGRAMS = new Set([
  'mkdir',
  'touch',
  'cp',
  'mv',
  'tee',
  'ln',
  'install',
  'chmod',
  'gzip',
  'gunzip',
  'zip',
  'bzip2',
  'xz',
  'export',
  'unset',
  'alias',
  'mktemp'
])

export const DESTRUCTIVE_PROGRAMS = new Set([
  'rm',
  'rmdir',
  'dd',
  'shred',
  'truncate',
  'kill',
  'killall',
  'pkill',
  'chown',
  'chgrp',
  'reboot',
  'shutdown',
  'halt',
  'poweroff',
  'fdisk',
  'mount',
  'umount',
  'mkswap',
  'wipefs',
  'parted'
])

export const NETWORK_PROGRAMS = new Set([
  'curl',
  'wget',
  'ssh',
  'scp',
  'sftp',
  'rsync',
  'nc',
  'ncat',
  'netcat',
  'telnet',
  'ftp',
  'ping',
  'dig',
  'nslookup',
  'host',
  'http',
  'https',
  'aria2c',
  'socat'
])

/** Programs that run whatever code they are given: a pipe into one of these runs remote text. */
export const INTERPRETERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'python',
  'python3',
  'node',
  'ruby',
  'perl',
  'php',
  'deno',
  'eval',
  'source',
  '.',
  'exec',
  'osascript',
  'pwsh',
  'powershell'
])

const PACKAGE_MANAGERS = new Set([
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'pip',
  'pip3',
  'cargo',
  'go',
  'gem',
  'uv',
  'poetry',
  'brew',
  'apt',
  'apt-get'
])
const PM_READ = new Set([
  'ls',
  'list',
  '--version',
  '-v',
  'version',
  'outdated',
  'why',
  'help',
  'config',
  'show',
  'freeze'
])
/** `npm config get` and `list` read; `set`, `delete` and `edit` change the config (which can name programs). */
const PM_CONFIG_READS = new Set(['get', 'list', 'ls'])
const PM_INSTALL = new Set([
  'install',
  'i',
  'add',
  'ci',
  'update',
  'upgrade',
  'remove',
  'uninstall',
  'get',
  'sync',
  'publish'
])

/** Package managers: listing is read-only, installing is network, everything else runs project code. */
export function classifyPackageManager(program: string, args: string[]): Classified | null {
  if (!PACKAGE_MANAGERS.has(program)) return null
  const sub = args.find((a) => !a.startsWith('-')) ?? args[0] ?? ''
  const configWrite = sub === 'config' && !args.some((a) => PM_CONFIG_READS.has(a))
  if (PM_READ.has(sub) && !configWrite) return { category: 'read_only' }
  if (PM_INSTALL.has(sub))
    return { category: 'network', reason: reasonOf('package_install', { program, sub }) }
  return { category: 'unknown', reason: reasonOf('package_runs_code', { program, sub }) }
}
