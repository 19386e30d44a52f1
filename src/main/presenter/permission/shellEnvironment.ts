import { forEachChild, type SyntaxNode } from 'unbash'
import type { Arg } from './optionParser'
import { isSecretVariableName } from './secretVariables'

/**
 * Variables that change which program runs, what it loads, or how it reads its options and
 * config: setting one in front of a command (or earlier in the line) is as good as running
 * a program of one's choice.
 */
const LOADER_EXACT = new Set([
  'PATH',
  'HOME',
  'ENV',
  'BASH_ENV',
  'IFS',
  'PS4',
  'PROMPT_COMMAND',
  'SHELL',
  'SHELLOPTS',
  'BASHOPTS',
  'GLOBIGNORE',
  'CDPATH',
  'PAGER',
  'MANPAGER',
  'EDITOR',
  'VISUAL',
  'LESS',
  'LESSOPEN',
  'LESSCLOSE',
  'LESSKEY',
  'LESSKEYIN',
  'TMPDIR',
  'ZDOTDIR',
  'GREP_OPTIONS',
  'TAR_OPTIONS',
  'XZ_OPT',
  'ZIPOPT',
  'UNZIP',
  'GZIP',
  'BROWSER',
  'TERMINFO'
])
const LOADER_PATTERN =
  /^(LD_|DYLD_|GIT_|NODE_|NPM_CONFIG_|PYTHON|PERL|RUBY|XDG_|JAVA_|_JAVA_|BASH_FUNC_)|(PATH|CONFIG|CONFIG_PATH|CONFIG_FILE|CONFIG_HOME|OPTIONS|_OPTS|RC|PRELOAD)$/
/** Pager settings that only turn paging off. */
const HARMLESS_PAGER = /^(PAGER|GIT_PAGER|MANPAGER)$/

export function changesWhatRuns(name: string, value?: string): boolean {
  if (HARMLESS_PAGER.test(name) && (value === '' || value === 'cat')) return false
  return LOADER_EXACT.has(name) || LOADER_PATTERN.test(name)
}

/** Builtins that print every variable when called this way. */
export function dumpsEnvironment(program: string, argv: Arg[]): boolean {
  const texts = argv.map((a) => a.text)
  const names = texts.filter((t) => !t.startsWith('-'))
  switch (program) {
    case 'set':
      return texts.length === 0
    case 'export':
    case 'readonly':
    case 'local':
      return names.length === 0
    case 'declare':
    case 'typeset':
      // `declare -f` lists functions; anything else without a name lists variables.
      return names.length === 0 && !texts.some((t) => /^-[a-zA-Z]*[fF]/.test(t))
    case 'compgen':
      return texts.some((t) => /^-[a-zA-Z]*[ve]/.test(t)) || /-A (variable|export)/.test(texts.join(' '))
    default:
      return false
  }
}

/** Builtins that set or declare the variables they are given by name. */
export const DECLARING_BUILTINS = new Set([
  'export',
  'declare',
  'typeset',
  'readonly',
  'local',
  'unset',
  'read',
  'mapfile',
  'readarray',
  'getopts'
])

/** What a line does with variables, found anywhere in it (words, here-documents, arithmetic). */
export interface VariableUse {
  /** Secret-looking variables the line expands. */
  secrets: string[]
  /** Indirect expansions (`${!name}`, `${!PREFIX*}`): which variable is read is known only at run time. */
  indirect: string[]
}

export function variableUseOf(node: SyntaxNode): VariableUse {
  const secrets = new Set<string>()
  const indirect = new Set<string>()
  const visit = (n: SyntaxNode): void => {
    if (n.type === 'SimpleExpansion' && isSecretVariableName(n.text.slice(1))) secrets.add(n.text.slice(1))
    if (n.type === 'ParameterExpansion') {
      if (n.prefix === '!') indirect.add(n.text)
      else if (isSecretVariableName(n.parameter)) secrets.add(n.parameter)
    }
    // `$(( TOKEN ))` reads TOKEN by name.
    if (n.type === 'ArithmeticWord' && /^[A-Za-z_]\w*$/.test(n.value) && isSecretVariableName(n.value))
      secrets.add(n.value)
    forEachChild(n, visit)
  }
  visit(node)
  return { secrets: [...secrets], indirect: [...indirect] }
}
