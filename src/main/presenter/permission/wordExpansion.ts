import { expand as expandBraces } from 'brace-expansion'
import type { DoubleQuotedChild, ParameterExpansionPart, SimpleExpansionPart, Word, WordPart } from 'unbash'
import { GLOB_MATCH_CAP, globEscape, isGlobPattern, literalOf, matchGlob } from './globExpansion'
import type { Arg } from './optionParser'
import { reasonOf, type Reason } from './reasonText'

/** What bash knows when it expands a word: the home folder and the working folders (logical, as `$PWD`). */
export interface ShellState {
  home: string
  cwd: string
  /** `$OLDPWD` once a `cd` in the line set it; unknown before. */
  oldCwd?: string
}

export interface ExpandedWord {
  /** The words bash passes: one per brace alternative and glob match. */
  args: Arg[]
  /** Why a part is only known at run time, when that is worth saying (`~user`, too many matches). */
  reasons: Reason[]
}

/** A stretch of a word: literal text, an active glob, or a `{a,b}` to expand. */
type Piece = { kind: 'literal' | 'glob' | 'brace' | 'tilde'; text: string }

/** Placeholders keep literal text away from the brace expander, which knows no quoting. */
const OPEN = '\uE000'
const CLOSE = '\uE001'
const PLACEHOLDER = new RegExp(`${OPEN}(\\d+)${CLOSE}`, 'g')

/**
 * Expands a word as bash would before running the command: braces, tilde, `$HOME`/`$PWD`/
 * `$OLDPWD`, then globs against the real folders. Anything else computed at run time (other
 * variables, `$(...)`, arithmetic, extglobs, `~user`) leaves the word dynamic, with what is
 * known substituted.
 */
export function expandWord(word: Word, state: ShellState): ExpandedWord {
  const reasons: Reason[] = []
  const { pieces, dynamic } = piecesOf(word, state)
  if (dynamic)
    return { args: [{ text: pieces.map((p) => p.text).join(''), dynamic: true, shown: word.value }], reasons }
  const patterns = withBraces(pieces)
  if (!patterns)
    return {
      args: [{ text: word.value, dynamic: true }],
      reasons: [reasonOf('unexpandable_word', { word: word.text })]
    }
  const args: Arg[] = []
  for (const raw of patterns) {
    const pattern = withTilde(raw, state)
    if (pattern === null) {
      reasons.push(reasonOf('dynamic_tilde', { word: word.text }))
      args.push({ text: literalOf(raw), dynamic: true })
      continue
    }
    if (!isGlobPattern(pattern)) {
      args.push({
        text: literalOf(pattern),
        dynamic: false,
        shown: patterns.length === 1 ? word.value : undefined
      })
      continue
    }
    const matched = matchGlob(pattern, state.cwd)
    if (matched.kind === 'too_many') {
      reasons.push(reasonOf('unexpandable_word', { word: word.text }))
      args.push({ text: literalOf(pattern), dynamic: true })
    } else if (matched.kind === 'none') args.push({ text: literalOf(pattern), dynamic: false })
    else args.push(...matched.paths.map((text) => ({ text, dynamic: false, globbed: true })))
  }
  return { args, reasons }
}

/** The word's pieces, and whether something in it is only known at run time. */
function piecesOf(word: Word, state: ShellState): { pieces: Piece[]; dynamic: boolean } {
  const parts: readonly WordPart[] = word.parts ?? [
    { type: 'Literal', value: word.value, text: word.text, pos: word.pos, end: word.end }
  ]
  const pieces: Piece[] = []
  let dynamic = false
  parts.forEach((part, index) => {
    if (part.type === 'Literal') {
      // An unquoted leading `~name` is a tilde prefix; `\~` (text starts with a backslash) is not.
      const tilde = index === 0 && part.text.startsWith('~') ? /^~[^/]*/.exec(part.value)?.[0] : undefined
      if (tilde) pieces.push({ kind: 'tilde', text: tilde })
      pieces.push({ kind: 'literal', text: tilde ? part.value.slice(tilde.length) : part.value })
    } else if (part.type === 'SingleQuoted' || part.type === 'AnsiCQuoted') {
      pieces.push({ kind: 'literal', text: part.value })
    } else if (part.type === 'DoubleQuoted' || part.type === 'LocaleString') {
      for (const child of part.parts) dynamic = pushExpansion(child, state, pieces) || dynamic
    } else if (part.type === 'Glob') {
      pieces.push({ kind: 'glob', text: part.text.replace(/^\[!/, '[^') })
    } else if (part.type === 'BraceExpansion') {
      // Quotes or expansions inside the braces: too clever to follow.
      if (/['"$`\\]/.test(part.text)) dynamic = true
      pieces.push({ kind: 'brace', text: part.text })
    } else {
      dynamic = pushExpansion(part, state, pieces) || dynamic
    }
  })
  return { pieces, dynamic }
}

/** Adds a variable's known value, or its text, returning true when it is only known at run time. */
function pushExpansion(part: WordPart | DoubleQuotedChild, state: ShellState, pieces: Piece[]): boolean {
  if (part.type === 'Literal') {
    pieces.push({ kind: 'literal', text: part.value })
    return false
  }
  const value =
    part.type === 'SimpleExpansion' || part.type === 'ParameterExpansion'
      ? knownVariable(part, state)
      : undefined
  pieces.push({ kind: 'literal', text: value ?? part.text })
  return value === undefined
}

/** `$HOME`, `${PWD}`, `$OLDPWD`: the only variables the classifier knows the value of. */
function knownVariable(
  part: SimpleExpansionPart | ParameterExpansionPart,
  state: ShellState
): string | undefined {
  if (part.type === 'ParameterExpansion' && (part.prefix || part.operation || part.index)) return undefined
  const name = part.type === 'ParameterExpansion' ? part.parameter : part.text.slice(1)
  if (name === 'HOME') return state.home
  if (name === 'PWD') return state.cwd
  if (name === 'OLDPWD') return state.oldCwd
  return undefined
}

/** The word's glob patterns after brace expansion, or null when there are too many alternatives. */
function withBraces(pieces: Piece[]): string[] | null {
  const asPattern = (piece: Piece): string => (piece.kind === 'literal' ? globEscape(piece.text) : piece.text)
  if (!pieces.some((p) => p.kind === 'brace')) return [pieces.map(asPattern).join('')]
  const source = pieces.map((p, i) => (p.kind === 'brace' ? p.text : `${OPEN}${i}${CLOSE}`)).join('')
  const expanded = expandBraces(source, { max: GLOB_MATCH_CAP + 1 })
  if (expanded.length > GLOB_MATCH_CAP) return null
  return expanded.map((text) => text.replace(PLACEHOLDER, (_m, i: string) => asPattern(pieces[Number(i)])))
}

/**
 * Resolves a leading tilde prefix: `~` and `~/x` are home, `~+` the working folder, `~-` the
 * previous one. `~user` (or `~-` before any `cd`) is null: known only at run time.
 */
function withTilde(pattern: string, state: ShellState): string | null {
  const prefix = /^~[^/]*/.exec(pattern)?.[0]
  if (!prefix) return pattern
  const value =
    prefix === '~' ? state.home : prefix === '~+' ? state.cwd : prefix === '~-' ? state.oldCwd : undefined
  return value === undefined ? null : globEscape(value) + pattern.slice(prefix.length)
}
