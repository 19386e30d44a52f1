import type { CommandCategory } from '@shared/types/permission'
import { reasonOf, type Reason } from './reasonText'

/** A program's category and, when it is not plainly read-only, why. */
export interface Classified {
  category: CommandCategory
  reason?: Reason
}

/** Programs that only look at things (unless an option below says otherwise). */
export const READ_ONLY_PROGRAMS = new Set([
  'ls', 'cat', 'head', 'tail', 'wc', 'echo', 'printf', 'pwd', 'which', 'whereis', 'type', 'file', 'stat',
  'du', 'df', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'find', 'fd', 'tree', 'diff', 'cmp', 'comm', 'sort',
  'uniq', 'cut', 'tr', 'nl', 'basename', 'dirname', 'realpath', 'readlink', 'date', 'whoami', 'id', 'uname',
  'hostname', 'true', 'false', 'test', '[', 'jq', 'sha1sum', 'sha256sum', 'sha512sum', 'md5sum', 'cksum',
  'od', 'xxd', 'hexdump', 'strings', 'column', 'seq', 'sleep', 'printenv', 'ps', 'cd', 'sed', 'paste',
  'fold', 'rev', 'tac', 'expr', 'locale', 'nproc', 'uptime', 'free', 'lsof', 'less', 'more', 'env'
])

export const WRITING_PROGRAMS = new Set([
  'mkdir', 'touch', 'cp', 'mv', 'tee', 'ln', 'install', 'patch', 'chmod', 'unzip', 'tar', 'gzip', 'gunzip',
  'zip', 'bzip2', 'xz', 'export', 'unset', 'alias', 'mktemp'
])

export const DESTRUCTIVE_PROGRAMS = new Set([
  'rm', 'rmdir', 'dd', 'shred', 'truncate', 'kill', 'killall', 'pkill', 'chown', 'chgrp', 'reboot', 'shutdown',
  'halt', 'poweroff', 'fdisk', 'mount', 'umount', 'mkswap', 'wipefs', 'parted'
])

export const NETWORK_PROGRAMS = new Set([
  'curl', 'wget', 'ssh', 'scp', 'sftp', 'rsync', 'nc', 'ncat', 'netcat', 'telnet', 'ftp', 'ping', 'dig',
  'nslookup', 'host', 'http', 'https', 'aria2c', 'socat'
])

/** Programs that run whatever code they are given: a pipe into one of these runs remote text. */
export const INTERPRETERS = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'python', 'python3', 'node', 'ruby', 'perl', 'php', 'deno',
  'eval', 'source', '.', 'exec', 'osascript', 'pwsh', 'powershell'
])

/** Elevation: always the top risk. */
export const ELEVATORS = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0'])

/** Wrappers whose real work is the command they wrap; the value is how many option-less args they eat. */
export const WRAPPERS: Record<string, number> = {
  nohup: 0, time: 0, nice: 0, command: 0, builtin: 0, timeout: 1, stdbuf: 0, xargs: 0, env: 0, ionice: 0
}

const GIT_READ = new Set([
  'status', 'diff', 'log', 'show', 'blame', 'ls-files', 'ls-tree', 'rev-parse', 'describe', 'shortlog', 'grep',
  'cat-file', 'reflog', 'whatchanged', 'merge-base', 'rev-list', 'name-rev', 'help', 'version', 'count-objects'
])
const GIT_NETWORK = new Set(['push', 'pull', 'fetch', 'clone', 'ls-remote', 'submodule', 'remote-update'])
const GIT_DESTRUCTIVE = new Set(['clean', 'rm', 'filter-branch', 'gc', 'prune'])

/** git's category depends on the subcommand and a few options. */
export function classifyGit(args: string[]): Classified {
  const rest = [...args]
  // Global options come before the subcommand: `git -C dir --no-pager status`.
  while (rest.length && rest[0].startsWith('-')) {
    const option = rest.shift() as string
    // A config override can name a pager, editor or hook: git would run it.
    if (option === '-c' || option.startsWith('--exec-path')) return { category: 'unknown', reason: reasonOf('git_runs_programs', { option }) }
    if (option === '-C') rest.shift()
  }
  const sub = rest[0] ?? ''
  const opts = rest.slice(1)
  if (sub === '') return { category: 'read_only' }
  if (opts.some((o) => o === '--output' || o.startsWith('--output=') || o === '-o')) return { category: 'writes', reason: reasonOf('git_writes_file', { sub }) }
  if (GIT_READ.has(sub)) return { category: 'read_only' }
  if (sub === 'branch' || sub === 'tag' || sub === 'remote' || sub === 'stash') {
    const listing = opts.length === 0 || opts.every((o) => ['-a', '-r', '-l', '-v', '-vv', '--list', '--all', 'list', 'show'].includes(o))
    if (listing) return { category: 'read_only' }
    if (opts.some((o) => o === '-D' || o === '--delete' || o === 'drop' || o === 'clear')) {
      return { category: 'destructive', reason: reasonOf('git_deletes', { sub }) }
    }
    return { category: 'writes' }
  }
  if (sub === 'config') {
    return opts.some((o) => o === '--get' || o === '--list' || o === '-l' || o === '--get-all')
      ? { category: 'read_only' }
      : { category: 'writes' }
  }
  if (sub === 'push' && opts.some((o) => o === '-f' || o === '--force' || o.startsWith('--force-with-lease') || o === '--delete')) {
    return { category: 'destructive', reason: reasonOf('git_force_push') }
  }
  if (GIT_NETWORK.has(sub)) return { category: 'network', reason: reasonOf('git_network', { sub }) }
  if (sub === 'reset' && opts.includes('--hard')) return { category: 'destructive', reason: reasonOf('git_reset_hard') }
  if ((sub === 'checkout' || sub === 'restore') && (opts.includes('--') || opts.includes('.') || opts.includes('-f'))) {
    return { category: 'destructive', reason: reasonOf('git_discards_changes', { sub }) }
  }
  if (GIT_DESTRUCTIVE.has(sub)) return { category: 'destructive', reason: reasonOf('git_deletes_history', { sub }) }
  return { category: 'writes' }
}

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'pip', 'pip3', 'cargo', 'go', 'gem', 'uv', 'poetry', 'brew', 'apt', 'apt-get'])
const PM_READ = new Set(['ls', 'list', '--version', '-v', 'version', 'outdated', 'why', 'help', 'config', 'env', 'show', 'freeze'])
const PM_INSTALL = new Set(['install', 'i', 'add', 'ci', 'update', 'upgrade', 'remove', 'uninstall', 'get', 'sync', 'publish'])

/** Package managers: listing is read-only, installing is network, everything else runs project code. */
export function classifyPackageManager(program: string, args: string[]): Classified | null {
  if (!PACKAGE_MANAGERS.has(program)) return null
  const sub = args.find((a) => !a.startsWith('-')) ?? args[0] ?? ''
  if (PM_READ.has(sub) && !(sub === 'config' && args.includes('set'))) return { category: 'read_only' }
  if (PM_INSTALL.has(sub)) return { category: 'network', reason: reasonOf('package_install', { program, sub }) }
  return { category: 'unknown', reason: reasonOf('package_runs_code', { program, sub }) }
}

/** sed commands we can read: `5p`, `1,10d`, `/re/p`, `s/a/b/g`. `w`, `e`, `r` and the like change things. */
const SED_ADDRESS = String.raw`((\d+|\$)(,(\d+|\$))?|\/[^/]*\/)?\s*`
const SED_PRINT = new RegExp(`^${SED_ADDRESS}[pdq=]$`)
const SED_SUBSTITUTE_START = new RegExp(`^${SED_ADDRESS}s`)

function isSafeSedCommand(command: string): boolean {
  const text = command.trim()
  if (text === '' || SED_PRINT.test(text)) return true
  const start = SED_SUBSTITUTE_START.exec(text)
  if (!start) return false
  const delimiter = text[start[0].length]
  if (!delimiter || /[\s\\\n]/.test(delimiter)) return false
  // Walk pattern and replacement (honouring backslash escapes); what remains are the flags.
  let index = start[0].length + 1
  for (let part = 0; part < 2; part++) {
    while (index < text.length && text[index] !== delimiter) index += text[index] === '\\' ? 2 : 1
    if (index >= text.length) return false
    index++
  }
  return /^[gpiIm0-9]*$/.test(text.slice(index))
}

export function classifySed(args: string[]): Classified {
  if (args.some((a) => a === '-i' || /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) {
    return { category: 'writes', reason: reasonOf('sed_in_place') }
  }
  const scripts: string[] = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '-e' || args[i] === '--expression') scripts.push(args[++i] ?? '')
    else if (args[i] === '-f' || args[i] === '--file') return { category: 'unknown', reason: reasonOf('sed_script_file') }
  }
  if (scripts.length === 0) {
    const first = args.find((a) => !a.startsWith('-'))
    if (first !== undefined) scripts.push(first)
  }
  if (scripts.every((script) => script.split(/[;\n]/).every(isSafeSedCommand))) return { category: 'read_only' }
  return { category: 'unknown', reason: reasonOf('sed_unsafe_script') }
}
