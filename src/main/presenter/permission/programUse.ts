import type { CommandCategory } from '@shared/types/permission'
import {
  parseArgs,
  unknownValues,
  withEffect,
  type Arg,
  type OptionTable,
  type ParsedArgs
} from './optionParser'
import type { Reason } from './reasonText'

/** Something a read-only program does beyond reading what it is given, and the option that made it. */
export type Hazard =
  | 'runs' // runs another program
  | 'writes' // writes a file
  | 'list' // reads paths from a list known only at run time
  | 'follows' // follows symbolic links while descending folders
  | 'env' // shows the environment
  | 'system' // changes a system setting
  | 'extract' // unpacks an archive (which may hold links that lead out)
  | 'network' // reaches another host

/** A category and its reason, for programs with reasons of their own (sed, find, tail). */
export interface Verdict {
  category: CommandCategory
  reason: Reason
}

/** What one run of a program touches, as read from its arguments. */
export interface ProgramUse {
  /** Paths it reads; `recursive` when it descends into them. */
  reads: { arg: Arg; recursive: boolean }[]
  /** Paths it writes. */
  writes: Arg[]
  hazards: { hazard: Hazard; option: string }[]
  verdicts: Verdict[]
  /** Environment variables it shows by name (`printenv NAME`). */
  shownVariables: string[]
  /** Shell variables it sets by name (`printf -v NAME`). */
  setVariables: string[]
  /** The folder it works in when an option moves it (`git -C dir`, `env -C dir`). */
  cwd?: Arg
  /** git subcommands that write the repository: `config` also names programs git runs later. */
  repositoryWrite?: { sub: string; config: boolean }
}

/** How a program uses its operands. */
export type OperandUse =
  | 'paths' // every operand is a path it reads
  | 'none' // operands are words, names or numbers, never opened
  | 'pattern-then-paths' // the first is a pattern, unless an option gave it
  | 'input-output' // `uniq in out`: the first is read, the second written

/** One entry of the read-only table: why the program only reads, and what changes that. */
export interface ReadOnlyProgram {
  /** Why it is read-only: what it does and that it changes nothing. */
  why: string
  operands: OperandUse
  options: OptionTable
  /** It descends into folders whatever its options (find, rg, du, tree). */
  recursive?: boolean
  /** Descending, it follows links unless an option says not to (diff -r). */
  followsByDefault?: boolean
  /** Reads the arguments itself, when getopt is not how the program reads them. */
  parse?: (argv: Arg[]) => ProgramUse
  /** What the table cannot say: meaningful operands (`date 0101`), BSD options (`ps e`), scripts. */
  special?: (parsed: ParsedArgs, use: ProgramUse) => void
}

export function emptyUse(): ProgramUse {
  return { reads: [], writes: [], hazards: [], verdicts: [], shownVariables: [], setVariables: [] }
}

/** Reads `argv` by the entry's option table and operand use. */
export function useFromTable(entry: ReadOnlyProgram, argv: Arg[]): ProgramUse {
  if (entry.parse) return entry.parse(argv)
  const parsed = parseArgs(argv, entry.options)
  const use = emptyUse()
  applyOptions(parsed, use)
  const recursive = entry.recursive === true || withEffect(parsed, 'recursive').length > 0
  const follows =
    withEffect(parsed, 'follows')[0]?.name ??
    (entry.followsByDefault && withEffect(parsed, 'noFollow').length === 0 ? '-r' : undefined)
  if (recursive && follows) use.hazards.push({ hazard: 'follows', option: follows })
  const operands = parsed.operands
  switch (entry.operands) {
    case 'paths':
      for (const arg of operands) use.reads.push({ arg, recursive })
      break
    case 'pattern-then-paths': {
      const paths = withEffect(parsed, 'pattern').length > 0 ? operands : operands.slice(1)
      for (const arg of paths) use.reads.push({ arg, recursive })
      break
    }
    case 'input-output':
      operands.forEach((arg, index) => {
        if (index === 1) {
          use.writes.push(arg)
          use.hazards.push({ hazard: 'writes', option: arg.text })
        } else use.reads.push({ arg, recursive: false })
      })
      break
    case 'none':
      break
  }
  // A recursive search with no folder named searches the working folder.
  if (recursive && entry.operands !== 'none' && use.reads.every((r) => !r.recursive))
    use.reads.push({ arg: { text: '.', dynamic: false }, recursive: true })
  entry.special?.(parsed, use)
  return use
}

/** Each option's effects: values read or written, programs run, the environment shown. */
export function applyOptions(parsed: ParsedArgs, use: ProgramUse): void {
  for (const value of unknownValues(parsed)) use.reads.push({ arg: value, recursive: false })
  for (const option of parsed.options) {
    for (const effect of option.rule?.effects ?? []) {
      if (effect === 'reads' && option.value) use.reads.push({ arg: option.value, recursive: false })
      else if (effect === 'writes') {
        use.hazards.push({ hazard: 'writes', option: option.name })
        if (option.value) use.writes.push(option.value)
      } else if (effect === 'list') {
        use.hazards.push({ hazard: 'list', option: option.name })
        if (option.value) use.reads.push({ arg: option.value, recursive: false })
      } else if (effect === 'runs' || effect === 'env' || effect === 'system') {
        use.hazards.push({ hazard: effect, option: option.name })
      }
    }
  }
}
