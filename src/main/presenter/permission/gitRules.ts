import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { optionTable as opts, parseArgs, type Arg, type OptionTable, type ParsedArgs } from './optionParser'
import { applyOptions, emptyUse, type ProgramUse, type Verdict } from './programUse'
import { reasonOf } from './reasonText'

/**
 * git: a few subcommands only read (status, diff, log, ...), and even those have options that
 * run programs (`--ext-diff`, `grep -O`), write files (`--output`) or read paths outside the
 * repository (`diff --no-index`). Every other subcommand writes the repository, `.git`, which
 * is a protected entry: it asks in every mode but full access.
 */

const GLOBAL = opts({
  runs: '-c= --config-env= --exec-path=?',
  text: '--namespace= --super-prefix= --list-cmds= --attr-source=',
  cwd: '-C= --git-dir= --work-tree='
})

const DIFF = opts({ runs: '--ext-diff --textconv', writes: '--output=', reads: '-O=?' })
const NONE = opts({})
/** Read-only subcommands and what in each can do more than read. */
const READ: Record<string, OptionTable> = {
  status: NONE,
  diff: DIFF,
  'diff-tree': DIFF,
  'diff-index': DIFF,
  'diff-files': DIFF,
  log: DIFF,
  show: DIFF,
  whatchanged: DIFF,
  shortlog: NONE,
  blame: opts({ runs: '--textconv', reads: '--contents= -S= --ignore-revs-file=' }),
  annotate: opts({ runs: '--textconv', reads: '--contents= -S=' }),
  grep: opts({ runs: '-O=? --open-files-in-pager=? --textconv', reads: '-f=', pattern: '-e= -f=' }),
  'cat-file': opts({ runs: '--textconv --filters' }),
  'ls-files': opts({ reads: '-X= --exclude-from=' }),
  'ls-tree': NONE,
  'rev-parse': NONE,
  describe: NONE,
  'merge-base': NONE,
  'rev-list': NONE,
  'name-rev': NONE,
  version: NONE,
  'count-objects': NONE,
  'for-each-ref': NONE,
  'show-ref': NONE,
  'show-branch': NONE,
  'check-ignore': NONE,
  'check-attr': NONE,
  help: opts({ runs: '-w --web -i --info' })
}
const NETWORK = new Set([
  'push',
  'pull',
  'fetch',
  'clone',
  'ls-remote',
  'request-pull',
  'send-email',
  'svn',
  'p4'
])
const DESTRUCTIVE = new Set(['clean', 'rm', 'filter-branch', 'gc', 'prune'])
/** Values of common writing subcommands that are messages or names, not paths. */
const WRITE_VALUES = opts({
  text: '-m= --message= -F= --file= -C= -c= --author= --date= -t= --template= --cleanup= --trailer= --fixup= --squash= -b= -B='
})

/** Listing forms of subcommands that otherwise write. */
const LISTING: Record<string, (sub: ParsedArgs) => boolean> = {
  branch: (p) =>
    p.operands.length === 0 ||
    hasOption(
      p,
      '-l',
      '--list',
      '-a',
      '--all',
      '-r',
      '--remotes',
      '--contains',
      '--merged',
      '--no-merged',
      '--points-at',
      '--show-current'
    ),
  tag: (p) =>
    p.operands.length === 0 ||
    hasOption(
      p,
      '-l',
      '--list',
      '-n',
      '--contains',
      '--merged',
      '--no-merged',
      '--points-at',
      '-v',
      '--verify'
    ),
  stash: (p) => ['list', 'show'].includes(p.operands[0]?.text ?? ''),
  worktree: (p) => p.operands[0]?.text === 'list',
  notes: (p) => ['list', 'show'].includes(p.operands[0]?.text ?? ''),
  reflog: (p) => !['expire', 'delete'].includes(p.operands[0]?.text ?? ''),
  remote: (p) =>
    p.operands.length === 0 ||
    p.operands[0].text === 'get-url' ||
    (p.operands[0].text === 'show' && hasOption(p, '-n')),
  submodule: (p) => ['status', 'summary', ''].includes(p.operands[0]?.text ?? '')
}
const CONFIG_READS = [
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--list',
  '-l',
  '--get-color',
  '--get-colorbool'
]

function hasOption(parsed: ParsedArgs, ...names: string[]): boolean {
  return parsed.options.some((o) => names.includes(o.name))
}

/** What a git command touches. */
export function useOfGit(argv: Arg[]): ProgramUse {
  const global = parseArgs(argv, GLOBAL, true)
  const use = emptyUse()
  applyOptions(global, use)
  const places = global.options
    .filter((o) => o.rule?.effects.includes('cwd') && o.value)
    .map((o) => o.value as Arg)
  use.cwd = global.options.find((o) => o.name === '-C')?.value
  const [subArg, ...rest] = global.rest
  const sub = subArg?.text ?? ''
  const readTable = Object.hasOwn(READ, sub) ? READ[sub] : undefined
  if (sub === '' || readTable) {
    judgeRead(sub, parseArgs(rest, readTable ?? NONE), use)
  } else {
    const parsed = parseArgs(rest, WRITE_VALUES)
    const verdict = writingVerdict(
      sub,
      parsed,
      rest.some((a) => a.text === '--'),
      use
    )
    if (verdict) use.verdicts.push(verdict)
    if (verdict && sub !== 'config') use.writes.push(...parsed.operands)
  }
  const writing = use.verdicts.length > 0
  for (const place of places) {
    if (writing) use.writes.push(place)
    else use.reads.push({ arg: place, recursive: false })
  }
  return withGitReasons(sub, use)
}

/** Options that make git run a program or write a file keep git's own reasons. */
function withGitReasons(sub: string, use: ProgramUse): ProgramUse {
  for (const { hazard, option } of use.hazards) {
    if (hazard === 'runs')
      use.verdicts.push({ category: 'unknown', reason: reasonOf('git_runs_programs', { option }) })
    if (hazard === 'writes')
      use.verdicts.push({ category: 'writes', reason: reasonOf('git_writes_file', { sub }) })
  }
  use.hazards = use.hazards.filter((h) => h.hazard !== 'runs' && h.hazard !== 'writes')
  return use
}

function judgeRead(sub: string, parsed: ParsedArgs, use: ProgramUse): void {
  applyOptions(parsed, use)
  // --no-index turns diff and grep into tools for any two paths on disk.
  if (hasOption(parsed, '--no-index')) {
    const paths =
      sub === 'grep' && !parsed.options.some((o) => o.rule?.effects.includes('pattern'))
        ? parsed.operands.slice(1)
        : parsed.operands
    for (const arg of paths) use.reads.push({ arg, recursive: sub === 'grep' })
  }
}

/** The verdict of a subcommand that is not plainly read-only, or null for a listing form. */
function writingVerdict(sub: string, parsed: ParsedArgs, dashDash: boolean, use: ProgramUse): Verdict | null {
  const listing = Object.hasOwn(LISTING, sub) ? LISTING[sub] : undefined
  if (listing?.(parsed)) return null
  if (sub === 'config') return configVerdict(parsed, use)
  if (sub === 'submodule' && parsed.operands[0]?.text === 'foreach') {
    use.hazards.push({ hazard: 'runs', option: 'foreach' })
    return { category: 'unknown', reason: reasonOf('git_runs_programs', { option: 'submodule foreach' }) }
  }
  use.repositoryWrite = { sub, config: sub === 'remote' }
  const first = parsed.operands[0]?.text ?? ''
  const forcing =
    hasOption(parsed, '-f', '--force', '-d', '--delete', '--mirror', '--prune') ||
    parsed.options.some((o) => o.name.startsWith('--force-with-lease')) ||
    parsed.operands.slice(1).some((o) => o.text.startsWith('+') || o.text.startsWith(':'))
  if (sub === 'push' && forcing) {
    return { category: 'destructive', reason: reasonOf('git_force_push') }
  }
  if (
    NETWORK.has(sub) ||
    (sub === 'remote' && ['show', 'prune', 'update', 'set-head'].includes(first)) ||
    sub === 'submodule'
  ) {
    return { category: 'network', reason: reasonOf('git_network', { sub }) }
  }
  if (
    (sub === 'branch' && hasOption(parsed, '-d', '-D', '--delete')) ||
    (sub === 'tag' && hasOption(parsed, '-d', '--delete')) ||
    (sub === 'stash' && ['drop', 'clear'].includes(first))
  ) {
    return { category: 'destructive', reason: reasonOf('git_deletes', { sub }) }
  }
  if (sub === 'reset' && hasOption(parsed, '--hard'))
    return { category: 'destructive', reason: reasonOf('git_reset_hard') }
  const discards =
    sub === 'restore'
      ? !hasOption(parsed, '--staged', '-S') || hasOption(parsed, '--worktree', '-W')
      : dashDash || parsed.operands.some((o) => o.text === '.') || hasOption(parsed, '-f', '--force')
  if ((sub === 'checkout' || sub === 'restore') && discards) {
    return { category: 'destructive', reason: reasonOf('git_discards_changes', { sub }) }
  }
  if (DESTRUCTIVE.has(sub))
    return { category: 'destructive', reason: reasonOf('git_deletes_history', { sub }) }
  return { category: 'writes', reason: reasonOf('git_writes_repository', { sub }) }
}

/** `git config`: reading is fine; setting can name a pager, editor or hook git runs later. */
function configVerdict(parsed: ParsedArgs, use: ProgramUse): Verdict | null {
  const file =
    parsed.options.find((o) => o.name === '-f' || o.name === '--file')?.value ??
    parsed.options.find((o) => o.name.startsWith('--file='))?.value
  const [first] = parsed.operands
  const reading =
    hasOption(parsed, ...CONFIG_READS) ||
    ['get', 'list'].includes(first?.text ?? '') ||
    (parsed.operands.length === 1 &&
      !['set', 'unset', 'edit', 'rename-section', 'remove-section'].includes(first.text) &&
      !hasOption(
        parsed,
        '--unset',
        '--unset-all',
        '--add',
        '--replace-all',
        '--rename-section',
        '--remove-section',
        '-e',
        '--edit'
      ))
  if (reading) {
    if (file) use.reads.push({ arg: file, recursive: false })
    return null
  }
  if (hasOption(parsed, '-e', '--edit') || first?.text === 'edit')
    use.hazards.push({ hazard: 'runs', option: '--edit' })
  if (file) use.writes.push(file)
  if (hasOption(parsed, '--global')) use.writes.push({ text: '~/.gitconfig', dynamic: false })
  if (hasOption(parsed, '--system')) use.writes.push({ text: '/etc/gitconfig', dynamic: false })
  use.repositoryWrite = { sub: 'config', config: true }
  return { category: 'writes', reason: reasonOf('git_config_write') }
}

/** The folder holding `.git` at or above `dir`, or null outside any repository. */
export function repositoryRootOf(dir: string): string | null {
  for (let current = dir; ; current = dirname(current)) {
    if (existsSync(join(current, '.git'))) return current
    if (dirname(current) === current) return null
  }
}
