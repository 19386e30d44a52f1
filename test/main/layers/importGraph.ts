import { readFileSync, readdirSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'
import ts from 'typescript'

/** Who imports whom: file -> the files it imports, paths relative to the folder read, with `/`. */
export type ImportGraph = Map<string, Set<string>>

/** The compiler options of a tsconfig file (its `paths` included), to resolve imports as tsc does. */
export function compilerOptionsOf(tsconfig: string): ts.CompilerOptions {
  const { config } = ts.readConfigFile(tsconfig, ts.sys.readFile)
  return ts.parseJsonConfigFileContent(config, ts.sys, resolve(tsconfig, '..')).options
}

/**
 * The imports among the `.ts` files under `dir`, resolved as the compiler resolves them (`@shared/*`
 * and all). Type-only imports, re-exports and dynamic imports count: a circle through a type is
 * still one a reader has to untangle.
 */
export function importGraph(dir: string, options: ts.CompilerOptions): ImportGraph {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
  const key = (file: string) => relative(dir, file).split(sep).join('/')
  const inside = new Set(files.map(key))
  const graph: ImportGraph = new Map()
  for (const file of files) {
    const targets = new Set<string>()
    for (const imported of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const resolved = ts.resolveModuleName(imported.fileName, file, options, ts.sys).resolvedModule
      const target = resolved ? key(resolve(resolved.resolvedFileName)) : null
      if (target && inside.has(target)) targets.add(target)
    }
    graph.set(key(file), targets)
  }
  return graph
}

/** Every circle: each group of nodes that reach one another (Tarjan's strongly connected components). */
export function circles(graph: ImportGraph): string[][] {
  const order = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    order.set(node, order.size)
    low.set(node, order.get(node) ?? 0)
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) visit(next)
      if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0))
    }
    if (low.get(node) !== order.get(node)) return
    const group: string[] = []
    let member: string | undefined
    do {
      member = stack.pop()
      if (member === undefined) break
      onStack.delete(member)
      group.push(member)
    } while (member !== node)
    if (group.length > 1 || graph.get(node)?.has(node)) found.push(group.sort())
  }
  for (const node of graph.keys()) if (!order.has(node)) visit(node)
  return found
}

/**
 * The unit the layering is drawn in: a presenter domain (`presenter/toolPresenter`, its subfolders
 * included), another folder of src/main (`bridge`, `routes`, `electron`), or a file at the top of
 * either (`presenter/hook.ts`, `appResources.ts`).
 */
export function roomOf(file: string): string {
  const parts = file.split('/')
  if (parts[0] === 'presenter') return parts.length > 2 ? `presenter/${parts[1]}` : file
  return parts.length > 1 ? parts[0] : file
}

/** The graph between rooms: an arrow wherever a file of one imports a file of another. */
export function roomGraph(graph: ImportGraph): ImportGraph {
  const rooms: ImportGraph = new Map()
  for (const [file, targets] of graph) {
    const from = roomOf(file)
    const arrows = rooms.get(from) ?? new Set<string>()
    for (const target of targets) if (roomOf(target) !== from) arrows.add(roomOf(target))
    rooms.set(from, arrows)
  }
  return rooms
}

/** The file-level arrows from one room into another (what to move to remove a back-arrow). */
export function arrowsBetween(graph: ImportGraph, from: string, to: string): string[] {
  return [...graph].flatMap(([file, targets]) =>
    roomOf(file) === from ? [...targets].filter((t) => roomOf(t) === to).map((t) => `${file} -> ${t}`) : []
  )
}
