import { basename } from 'node:path'
import { optionTable as opts, parseArgs, type Arg, type OptionTable } from './optionParser'
import { reasonOf, type Reason } from './reasonText'

/** Elevation: always the top risk. */
export const ELEVATORS = new Set(['sudo', 'doas', 'su', 'pkexec', 'run0'])

interface WrapperSpec {
  options: OptionTable
  /** Operands before the wrapped command (`timeout 5 cmd`). */
  operandsBefore?: number
}

/** Programs whose real work is the command they wrap, and the options they take themselves. */
const WRAPPERS: Record<string, WrapperSpec> = {
  nohup: { options: opts({}) },
  time: { options: opts({ text: '-f= --format=', writes: '-o= --output=' }) },
  nice: { options: opts({ text: '-n= --adjustment=' }) },
  timeout: { options: opts({ text: '-s= --signal= -k= --kill-after=' }), operandsBefore: 1 },
  stdbuf: { options: opts({ text: '-i= --input= -o= --output= -e= --error=' }) },
  ionice: { options: opts({ text: '-c= --class= -n= --classdata= -p= --pid= -P= --pgid= -u= --uid=' }) },
  xargs: {
    options: opts({
      reads: '-a= --arg-file=',
      text: '-d= --delimiter= -E= -I= -L= --max-lines=? -n= --max-args= -P= --max-procs= -s= --max-chars= --process-slot-var= -e=? --eof=? -i=? --replace=? -l=?'
    })
  },
  env: {
    options: opts({
      text: '-u= --unset= -a= --argv0= --block-signal=? --default-signal=? --ignore-signal=?',
      cwd: '-C= --chdir=',
      list: '-S= --split-string='
    })
  },
  command: { options: opts({}) },
  builtin: { options: opts({}) },
  exec: { options: opts({ text: '-a=' }) },
  sudo: {
    options: opts({
      text: '-u= --user= -g= --group= -C= --close-from= -D= --chdir= -h= --host= -p= --prompt= -r= --role= -t= --type= -T= --command-timeout= -U= --other-user='
    })
  },
  doas: { options: opts({ text: '-u= -C=' }) },
  pkexec: { options: opts({ text: '--user=' }) },
  run0: {
    options: opts({ text: '--user= -u= --setenv= --property= --unit= --description= --nice= --chdir= -D=' })
  }
}

export interface Unwrapped {
  /** The program that finally runs, as written (`/usr/bin/cat`), or '' for none. */
  program: Arg
  args: Arg[]
  /** Elevating wrappers met on the way (`sudo`). */
  elevated: string[]
  /** `NAME=value` set by `env` for the command. */
  assignments: { name: string; value: string }[]
  reads: Arg[]
  writes: Arg[]
  /** The folder `env -C` runs the command in. */
  cwd?: Arg
  /** Why the command itself is only known at run time (`xargs`, `env -S`). */
  dynamic: Reason[]
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s

/** Peels `sudo`, `env`, `xargs`, `timeout 5`, `nice -n 5`, ... off a command, judging their own options. */
export function unwrap(argv: Arg[]): Unwrapped {
  const result: Unwrapped = {
    program: argv[0] ?? { text: '', dynamic: false },
    args: argv.slice(1),
    elevated: [],
    assignments: [],
    reads: [],
    writes: [],
    dynamic: []
  }
  for (let depth = 0; depth < 8; depth++) {
    const name = result.program.dynamic ? '' : basename(result.program.text)
    const spec = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined
    if (ELEVATORS.has(name)) result.elevated.push(name)
    if (!spec) return result
    // `command -v git` looks a name up; it runs nothing.
    if (name === 'command' && result.args.some((a) => a.text === '-v' || a.text === '-V')) {
      return {
        ...result,
        program: { text: 'type', dynamic: false },
        args: result.args.filter((a) => !a.text.startsWith('-'))
      }
    }
    const parsed = parseArgs(
      name === 'env' ? result.args.filter((a) => a.text !== '-') : result.args,
      spec.options,
      true
    )
    for (const option of parsed.options) {
      const effects = option.rule?.effects ?? []
      if (effects.includes('reads') && option.value) result.reads.push(option.value)
      if (effects.includes('writes') && option.value) result.writes.push(option.value)
      if (effects.includes('cwd') && option.value) result.cwd = option.value
      if (effects.includes('list')) result.dynamic.push(reasonOf('env_split_string'))
    }
    let rest = parsed.rest.slice(spec.operandsBefore ?? 0)
    if (name === 'env') {
      while (rest[0] && !rest[0].dynamic && ASSIGNMENT.test(rest[0].text)) {
        const [, variable, value] = ASSIGNMENT.exec(rest[0].text) as RegExpExecArray
        result.assignments.push({ name: variable, value })
        rest = rest.slice(1)
      }
    }
    if (name === 'xargs') result.dynamic.push(reasonOf('xargs_input'))
    if (rest.length === 0) {
      // xargs with no command runs echo; a bare env prints the environment; a bare exec only redirects.
      const program = name === 'xargs' ? 'echo' : name === 'exec' ? '' : undefined
      return {
        ...result,
        program: program === undefined ? result.program : { text: program, dynamic: false },
        args: []
      }
    }
    result.program = rest[0]
    result.args = rest.slice(1)
  }
  return result
}
