import { optionTable as opts, parseArgs, type Arg } from './optionParser'
import { applyOptions, emptyUse, type ProgramUse } from './programUse'
import { reasonOf } from './reasonText'

/**
 * Programs whose arguments getopt cannot read: find's expressions, jq's filter and two-value
 * options, tar's bundled first word and modes, unzip's modes, xxd's single-dash words.
 */

const FIND_LEADING = new Set(['-H', '-L', '-P'])
const FIND_EXEC = new Set(['-exec', '-execdir', '-ok', '-okdir'])
const FIND_WRITES = new Set(['-fprint', '-fprint0', '-fls', '-fprintf'])
const FIND_READS = /^-(newer|anewer|cnewer|samefile|newer[aBcmt][aBcmt])$/
/** Primaries that take one value, which is a pattern, number or name, never opened. */
const FIND_TEXT = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-lname',
  '-ilname',
  '-type',
  '-xtype',
  '-user',
  '-group',
  '-uid',
  '-gid',
  '-perm',
  '-size',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-used',
  '-links',
  '-inum',
  '-maxdepth',
  '-mindepth',
  '-printf',
  '-regextype',
  '-context',
  '-fstype'
])
const startsExpression = (text: string): boolean =>
  text.startsWith('-') || text === '(' || text === '!' || text === ')' || text === ','

/** `find [-H|-L|-P] [start...] [expression]`: starting points are read, every primary is judged. */
export function useOfFind(argv: Arg[]): ProgramUse {
  const use = emptyUse()
  let i = 0
  for (; i < argv.length && (FIND_LEADING.has(argv[i].text) || /^-(D|O\d*)$/.test(argv[i].text)); i++) {
    if (argv[i].text === '-L' || argv[i].text === '-H')
      use.hazards.push({ hazard: 'follows', option: argv[i].text })
    if (argv[i].text === '-D') i++
  }
  const starts: Arg[] = []
  for (; i < argv.length && (argv[i].dynamic || !startsExpression(argv[i].text)); i++) starts.push(argv[i])
  if (starts.length === 0) starts.push({ text: '.', dynamic: false })
  let deletes = false
  for (; i < argv.length; i++) {
    const text = argv[i].text
    if (FIND_EXEC.has(text)) {
      use.verdicts.push({ category: 'unknown', reason: reasonOf('find_exec') })
      while (i + 1 < argv.length && argv[i + 1].text !== ';' && argv[i + 1].text !== '+') i++
    } else if (text === '-delete') {
      deletes = true
      use.verdicts.push({ category: 'destructive', reason: reasonOf('find_delete') })
    } else if (FIND_WRITES.has(text)) {
      use.verdicts.push({ category: 'writes', reason: reasonOf('find_writes') })
      if (argv[i + 1]) use.writes.push(argv[++i])
      if (text === '-fprintf') i++
    } else if (FIND_READS.test(text) && argv[i + 1]) {
      use.reads.push({ arg: argv[++i], recursive: false })
    } else if (text === '-files0-from') {
      use.hazards.push({ hazard: 'list', option: text })
      if (argv[i + 1]) use.reads.push({ arg: argv[++i], recursive: false })
    } else if (text === '-follow') {
      use.hazards.push({ hazard: 'follows', option: text })
    } else if (FIND_TEXT.has(text)) {
      i++
    }
  }
  // Deleting makes every starting point a write (judged as a delete by the caller).
  if (deletes) use.writes.push(...starts)
  else for (const arg of starts) use.reads.push({ arg, recursive: true })
  return use
}

const JQ = opts({
  reads: '-f= --from-file= -L=',
  text: '--indent= --arg= --argjson=',
  pattern: '-f= --from-file='
})
const JQ_TWO_VALUES = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile'])
/** Filters that read the environment or load modules from the library path. */
const JQ_ENV = /(^|[^\w$.])env\b|\$ENV\b/
const JQ_MODULES = /\b(import|include|modulemeta)\b/

/** `jq [options] filter [files]`, where `--arg NAME VALUE` and friends take two words. */
export function useOfJq(argv: Arg[]): ProgramUse {
  const use = emptyUse()
  const rest: Arg[] = []
  let positionalArgs = false
  for (let i = 0; i < argv.length; i++) {
    const text = argv[i].text
    if (JQ_TWO_VALUES.has(text)) {
      const file = argv[i + 2]
      if ((text === '--slurpfile' || text === '--rawfile') && file)
        use.reads.push({ arg: file, recursive: false })
      i += 2
    } else if (text === '--args' || text === '--jsonargs') {
      positionalArgs = true
    } else rest.push(argv[i])
  }
  const parsed = parseArgs(rest, JQ)
  applyOptions(parsed, use)
  const fromFile = parsed.options.some((o) => o.rule?.effects.includes('pattern'))
  const filter = fromFile ? undefined : parsed.operands[0]
  const files = fromFile ? parsed.operands : parsed.operands.slice(1)
  if (filter && JQ_ENV.test(filter.text)) use.hazards.push({ hazard: 'env', option: 'env' })
  if (filter && JQ_MODULES.test(filter.text)) use.hazards.push({ hazard: 'list', option: 'import' })
  // After --args the operands are values for $ARGS; jq reads no files then.
  if (!positionalArgs) for (const arg of files) use.reads.push({ arg, recursive: false })
  return use
}

const TAR = opts({
  text: '-b= --blocking-factor= -H= --format= -K= --starting-file= -L= --tape-length= -N= --newer= --after-date= -V= --label= --owner= --group= --mode= --mtime= --exclude= --transform= --xform= --strip-components= --checkpoint=? --record-size= --sort= --quoting-style= --occurrence=? --hole-detection= --warning= -f= --file= -C= --directory=',
  list: '-T= --files-from=',
  reads: '-X= --exclude-from=',
  writes: '-g= --listed-incremental= --index-file= --volno-file=',
  runs: '-I= --use-compress-program= --to-command= --checkpoint-action= -F= --info-script= --new-volume-script= --rsh-command= --rmt-command='
})
const TAR_MODES: [RegExp, 'list' | 'extract' | 'create'][] = [
  [/^(-t|--list)$/, 'list'],
  [/^(-x|--extract|--get)$/, 'extract'],
  [/^(-c|--create|-r|--append|-u|--update|-A|--catenate|--concatenate|--delete)$/, 'create'],
  [/^(-d|--diff|--compare)$/, 'list']
]
const TAR_OLD_STYLE_VALUES = new Set(['f', 'b', 'C', 'F', 'g', 'H', 'I', 'K', 'L', 'N', 'T', 'V', 'X'])

/** tar's old first word (`tvf a.tar`) in the getopt form (`-t -v -f a.tar`). */
function tarArgv(argv: Arg[]): Arg[] {
  const first = argv[0]
  if (!first || first.dynamic || first.text.startsWith('-')) return argv
  const out: Arg[] = []
  const values = argv.slice(1)
  for (const letter of first.text) {
    out.push({ text: `-${letter}`, dynamic: false })
    if (TAR_OLD_STYLE_VALUES.has(letter) && values.length) out.push(values.shift() as Arg)
  }
  return [...out, ...values]
}

/** tar: listing reads the archive; creating writes it and reads the members; extracting may write anywhere. */
export function useOfTar(argv: Arg[]): ProgramUse {
  const use = emptyUse()
  const parsed = parseArgs(tarArgv(argv), TAR)
  applyOptions(parsed, use)
  const mode =
    parsed.options.map((o) => TAR_MODES.find(([re]) => re.test(o.name))?.[1]).find(Boolean) ?? 'create'
  const archive = parsed.options
    .filter((o) => o.name === '-f' || o.name === '--file')
    .map((o) => o.value)
    .find(Boolean)
  const directory = parsed.options
    .filter((o) => o.name === '-C' || o.name === '--directory')
    .map((o) => o.value)
    .find(Boolean)
  const forceLocal = parsed.options.some((o) => o.name === '--force-local')
  // `-f host:file` makes tar run a remote shell.
  if (archive && !forceLocal && /^[^/]*:/.test(archive.text))
    use.hazards.push({ hazard: 'network', option: archive.text })
  if (mode === 'create') {
    use.hazards.push({ hazard: 'writes', option: archive?.text ?? '-f' })
    if (archive && archive.text !== '-') use.writes.push(archive)
    if (directory) use.reads.push({ arg: directory, recursive: true })
    for (const arg of parsed.operands) use.reads.push({ arg, recursive: true })
    if (parsed.options.some((o) => o.name === '-h' || o.name.startsWith('--deref')))
      use.hazards.push({ hazard: 'follows', option: '-h' })
    return use
  }
  if (archive && archive.text !== '-') use.reads.push({ arg: archive, recursive: false })
  if (mode === 'extract') {
    use.hazards.push({ hazard: 'extract', option: '-x' })
    use.writes.push(directory ?? { text: '.', dynamic: false })
  } else if (directory) use.reads.push({ arg: directory, recursive: false })
  return use
}

const UNZIP = opts({ text: '-P= -x=', writes: '-d=' })
const UNZIP_READ_MODES = /^-[a-zA-Z]*[lvtZzpc]/

/** unzip: `-l`, `-v`, `-t`, `-Z`, `-z`, `-p`, `-c` only read; anything else extracts. */
export function useOfUnzip(argv: Arg[]): ProgramUse {
  const use = emptyUse()
  const parsed = parseArgs(argv, UNZIP)
  const [archive] = parsed.operands
  if (archive) use.reads.push({ arg: archive, recursive: false })
  const reading = argv.some((a) => !a.dynamic && UNZIP_READ_MODES.test(a.text))
  if (reading) return use
  use.hazards.push({ hazard: 'extract', option: archive?.text ?? '' })
  const directory = parsed.options.find((o) => o.name === '-d')?.value
  use.writes.push(directory ?? { text: '.', dynamic: false })
  return use
}

/** xxd reads options by their first letter (`-c8`, `-cols 8`, `-revert`). */
const XXD_VALUES = new Set(['c', 'g', 'l', 's', 'n', 'o', 'R'])

/** `xxd [options] [infile [outfile]]`: `-r` turns hex back into bytes, an outfile is written. */
export function useOfXxd(argv: Arg[]): ProgramUse {
  const use = emptyUse()
  const operands: Arg[] = []
  for (let i = 0; i < argv.length; i++) {
    const { text, dynamic } = argv[i]
    if (dynamic || !text.startsWith('-') || text === '-') {
      operands.push(argv[i])
      continue
    }
    const letter = text[1]
    if (letter === 'r') use.hazards.push({ hazard: 'writes', option: text })
    if (XXD_VALUES.has(letter) && !/^-.[-+]?(0x[0-9a-fA-F]+|\d+)$/.test(text)) i++
  }
  const [input, output] = operands
  if (input && input.text !== '-') use.reads.push({ arg: input, recursive: false })
  if (output) {
    use.hazards.push({ hazard: 'writes', option: output.text })
    use.writes.push(output)
  }
  for (const extra of operands.slice(2)) use.reads.push({ arg: extra, recursive: false })
  return use
}
