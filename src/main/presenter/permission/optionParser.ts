/**
 * Reads a program's arguments the way GNU getopt_long does: short clusters (`-fo out`),
 * attached values (`-oout`, `--output=out`), `--` ending the options, options after operands,
 * and long options abbreviated to a prefix (`sort --comp=gzip` is `--compress-program`).
 */

/** What an option makes a program do, beyond reading what it is given. */
export type OptionEffect =
  | 'text' // its value is harmless text (a count, a delimiter, a format)
  | 'reads' // its value is a path the program reads
  | 'writes' // it writes a file (its value, when it has one)
  | 'runs' // it runs another program
  | 'list' // its value names a file listing more paths: known only at run time
  | 'pattern' // its value is the search pattern, so every operand is a path
  | 'recursive' // the program descends into folders
  | 'follows' // the program follows symbolic links
  | 'noFollow' // the program does not follow symbolic links after all
  | 'env' // the program shows the environment
  | 'system' // it changes a system setting (clock, host name)
  | 'endless' // the program never ends by itself
  | 'cwd' // its value is the folder the program works in

export interface OptionRule {
  /** `required`: `-o out`, `-oout`, `--output=out`, `--output out`. `optional`: attached only (`-i.bak`, `--color=auto`). */
  value: 'none' | 'required' | 'optional'
  effects: OptionEffect[]
}

/** Rules keyed by the option as written: `-o`, `--output`. */
export type OptionTable = ReadonlyMap<string, OptionRule>

/** One argument after expansion, and whether bash only knows it at run time. */
export interface Arg {
  text: string
  dynamic: boolean
  /** The word as the model wrote it (quotes removed), for messages; `text` when absent. */
  shown?: string
  /** A glob match: the shell listed its folder to find it. */
  globbed?: boolean
}

export interface ParsedOption {
  /** As written (`--comp`, `-o`); `rule` says what it was taken to be. */
  name: string
  rule?: OptionRule
  value?: Arg
}

export interface ParsedArgs {
  options: ParsedOption[]
  operands: Arg[]
}

/**
 * Builds an option table from groups of names by effect: `{ writes: '-o= --output=', follows: '-L' }`.
 * A trailing `=` means the option takes a value, `=?` an optional attached one. A name listed
 * under several effects has them all.
 */
export function optionTable(groups: Partial<Record<OptionEffect, string>>): OptionTable {
  const table = new Map<string, OptionRule>()
  for (const [effect, names] of Object.entries(groups) as [OptionEffect, string][]) {
    for (const spec of names.split(/\s+/).filter(Boolean)) {
      const value = spec.endsWith('=?') ? 'optional' : spec.endsWith('=') ? 'required' : 'none'
      const name = spec.replace(/=\??$/, '')
      const rule = table.get(name) ?? { value, effects: [] }
      if (value !== 'none') rule.value = value
      rule.effects.push(effect)
      table.set(name, rule)
    }
  }
  return table
}

/**
 * The rule for a long option as written. GNU programs accept any unambiguous prefix, so a
 * prefix of several known options gets all their effects (it is an error to the program, or
 * one of them).
 */
export function longRule(table: OptionTable, name: string): OptionRule | undefined {
  const exact = table.get(name)
  if (exact) return exact
  const matches = [...table.entries()].filter(([key]) => key.startsWith('--') && key.startsWith(name))
  if (matches.length === 0) return undefined
  // An abbreviation never takes the next word here: if the guess were wrong, an operand would go unchecked.
  return { value: 'optional', effects: [...new Set(matches.flatMap(([, rule]) => rule.effects))] }
}

/**
 * Splits `argv` into options and operands. With `stopAtOperand` the first operand ends the
 * options (env, nice, xargs and other wrappers: the rest is the command they run).
 */
export function parseArgs(
  argv: readonly Arg[],
  table: OptionTable,
  stopAtOperand = false
): ParsedArgs & { rest: Arg[] } {
  const options: ParsedOption[] = []
  const operands: Arg[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    const text = arg.text
    if (text === '--') {
      operands.push(...argv.slice(i + 1))
      return { options, operands, rest: stopAtOperand ? argv.slice(i + 1) : [] }
    }
    if (arg.dynamic || !text.startsWith('-') || text === '-') {
      if (stopAtOperand) return { options, operands, rest: argv.slice(i) }
      operands.push(arg)
      continue
    }
    if (text.startsWith('--')) {
      const eq = text.indexOf('=')
      const name = eq > 0 ? text.slice(0, eq) : text
      const rule = longRule(table, name)
      if (eq > 0) options.push({ name, rule, value: { text: text.slice(eq + 1), dynamic: false } })
      else if (rule?.value === 'required' && table.has(name) && i + 1 < argv.length)
        options.push({ name, rule, value: argv[++i] })
      else options.push({ name, rule })
      continue
    }
    i = readCluster(argv, i, table, options)
  }
  return { options, operands, rest: [] }
}

/** `-abc`, `-oout`, `-o out`: returns the index of the last word used. */
function readCluster(
  argv: readonly Arg[],
  index: number,
  table: OptionTable,
  options: ParsedOption[]
): number {
  const text = argv[index].text
  for (let c = 1; c < text.length; c++) {
    const name = `-${text[c]}`
    const rule = table.get(name)
    const attached = text.slice(c + 1)
    if (rule?.value === 'required') {
      if (attached) options.push({ name, rule, value: { text: attached, dynamic: false } })
      else if (index + 1 < argv.length) options.push({ name, rule, value: argv[++index] })
      else options.push({ name, rule })
      return index
    }
    if (rule?.value === 'optional') {
      options.push({ name, rule, value: attached ? { text: attached, dynamic: false } : undefined })
      return index
    }
    options.push({ name, rule })
  }
  return index
}

/** The options that have `effect`. */
export function withEffect(parsed: ParsedArgs, effect: OptionEffect): ParsedOption[] {
  return parsed.options.filter((o) => o.rule?.effects.includes(effect))
}

/** Options not in the table that carry a `=value`: the value may be a path, so it is checked as one. */
export function unknownValues(parsed: ParsedArgs): Arg[] {
  return parsed.options.filter((o) => !o.rule && o.value).map((o) => o.value as Arg)
}
