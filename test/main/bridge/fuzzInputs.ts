import { z } from 'zod'
import type { RouteDef } from '@shared/contracts/define'

/** Odd strings a renderer (or anything that reaches the socket) can send. */
export const FUZZ_STRINGS: Record<string, string> = {
  nul: 'a\0b',
  'lone high surrogate': 'x\uD800y',
  'lone low surrogate': '\uDC00',
  '1 MB': 'm'.repeat(1 << 20),
  'regex metacharacters': '.*+?^${}()|[]\\/',
  'FTS quote': '"',
  'FTS star': '*',
  'FTS NEAR(': 'NEAR(',
  'FTS operators': 'a OR b NOT c AND "d',
  'FTS column filter': 'search_text:x {a b}: ^x',
  'SQL LIKE wildcards': '%_\\',
  'long path segment': `/${'p'.repeat(4000)}`,
  'relative path': '../../etc/passwd',
  'only spaces': '   '
}

type Json = Record<string, unknown>

/** One string leaf of an input: its path of keys, and `record-key` for the keys of a record. */
export type LeafPath = ReadonlyArray<string>

/**
 * Inputs for one route: for every string leaf of its contract, one input per fuzz string with
 * that leaf fuzzed and every other field a plausible value (`plausible` by field name).
 */
export function fuzzInputs(
  def: RouteDef,
  plausible: (key: string, schema: Json) => unknown
): Array<{ leaf: string; fuzz: string; input: unknown }> {
  const schema = z.toJSONSchema(def.input, { io: 'input', unrepresentable: 'any' }) as Json
  const out: Array<{ leaf: string; fuzz: string; input: unknown }> = []
  for (const leaf of stringLeaves(schema, [])) {
    for (const [fuzz, value] of Object.entries(FUZZ_STRINGS)) {
      out.push({ leaf: leaf.join('.'), fuzz, input: build(schema, [], leaf, value, plausible, '') })
    }
  }
  return out
}

function stringLeaves(schema: Json, path: string[]): string[][] {
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (branches) return branches.flatMap((b) => stringLeaves(b, path))
  if (schema.type === 'string' && !('const' in schema) && !('enum' in schema)) return [path]
  if (schema.type === 'array' && schema.items) return stringLeaves(schema.items as Json, [...path, '0'])
  if (schema.type === 'object') {
    const props = (schema.properties ?? {}) as Record<string, Json>
    const leaves = Object.entries(props).flatMap(([key, s]) => stringLeaves(s, [...path, key]))
    if (isRecord(schema)) {
      leaves.push([...path, 'record-key'])
      leaves.push(...stringLeaves(schema.additionalProperties as Json, [...path, 'record-value']))
    }
    return dedupe(leaves)
  }
  return []
}

function build(
  schema: Json,
  path: string[],
  target: LeafPath,
  fuzz: string,
  plausible: (key: string, schema: Json) => unknown,
  key: string
): unknown {
  const onTarget = startsWith(target, path)
  const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined
  if (branches) {
    const chosen =
      (onTarget && branches.find((b) => stringLeaves(b, path).some((l) => startsWith(target, l)))) ||
      branches.find((b) => b.type !== 'null') ||
      branches[0]
    return build(chosen, path, target, fuzz, plausible, key)
  }
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum)) {
    const wanted = plausible(key, schema)
    return schema.enum.includes(wanted) ? wanted : schema.enum[0]
  }
  switch (schema.type) {
    case 'string':
      return onTarget && target.length === path.length ? fuzz : (plausible(key, schema) ?? 'x')
    case 'integer':
    case 'number':
      return plausible(key, schema) ?? schema.minimum ?? 1
    case 'boolean':
      return false
    case 'array': {
      const needed = onTarget || (typeof schema.minItems === 'number' && schema.minItems > 0)
      return needed ? [build(schema.items as Json, [...path, '0'], target, fuzz, plausible, key)] : []
    }
    case 'object': {
      const out: Json = {}
      const required = new Set((schema.required ?? []) as string[])
      for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) {
        if (required.has(name) || startsWith(target, [...path, name]))
          out[name] = build(s, [...path, name], target, fuzz, plausible, name)
      }
      if (isRecord(schema) && onTarget) {
        const recordKey = startsWith(target, [...path, 'record-key']) ? fuzz : 'key'
        const valuePath = [...path, 'record-value']
        out[recordKey] = startsWith(target, valuePath)
          ? build(schema.additionalProperties as Json, valuePath, target, fuzz, plausible, recordKey)
          : 'value'
      }
      return out
    }
    default:
      return plausible(key, schema) ?? null
  }
}

function isRecord(schema: Json): boolean {
  return typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null
}

function startsWith(path: LeafPath, prefix: LeafPath): boolean {
  return prefix.length <= path.length && prefix.every((p, i) => path[i] === p)
}

function dedupe(paths: string[][]): string[][] {
  const seen = new Set<string>()
  return paths.filter((p) => !seen.has(p.join('.')) && seen.add(p.join('.')))
}
