// Tool system benchmarks, each against a baseline measured in the same run:
//   grep vs the raw `rg` CLI on a large generated tree (goal <= 1.2x),
//   glob vs fast-glob with the tool's own settings (dot files, no symlinks, its ignores, `unique`
//   only when the pattern walks from several bases) (goal <= 1.3x): what the tool adds is its
//   .gitignore handling, ranking and the call;
//   the request a chat with 1,000 MCP tools sends (tool search defers them): at most 128 tools
//   and 40 KB of definitions, and building it at most 5 ms (median; absolute: it runs before
//   every model request, and the only baseline, sending all 1,000, is what tool search replaces).
import { registerRawImports } from './rawImports'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fg from 'fast-glob'
import { performance } from 'node:perf_hooks'
import { median, report, sample } from './lib'

registerRawImports()

const { ToolPresenter } = await import('../src/main/presenter/toolPresenter/index')
const { PermissionPresenter, PermissionRuleStore } = await import('../src/main/presenter/permission/index')
const { SqlitePresenter } = await import('../src/main/presenter/sqlitePresenter/index')
const { rgPath } = await import('@vscode/ripgrep')
const { GLOB_ALWAYS_IGNORED } = await import('../src/main/presenter/toolPresenter/agentTools/glob')
type McpServerTool = import('../src/main/presenter/toolPresenter/mcpToolSource').McpServerTool

const DIRS = 200
const FILES_PER_DIR = 100
const root = mkdtempSync(join(tmpdir(), 'tools-bench-'))
const workspace = join(root, 'ws')

function generateTree(): number {
  let needles = 0
  const filler = Array.from(
    { length: 40 },
    (_, i) => `export const value${i} = compute(${i}) // some ordinary source text`
  ).join('\n')
  writeFileSync(join(root, 'placeholder'), '')
  mkdirSync(workspace)
  writeFileSync(join(workspace, '.gitignore'), '*.log\nbuild/\n')
  for (let d = 0; d < DIRS; d++) {
    const dir = join(workspace, `pkg${d % 20}`, `module${d}`)
    mkdirSync(dir, { recursive: true })
    for (let f = 0; f < FILES_PER_DIR; f++) {
      const hasNeedle = (d * FILES_PER_DIR + f) % 67 === 0
      if (hasNeedle) needles++
      writeFileSync(
        join(dir, `file${f}.${f % 3 === 0 ? 'ts' : f % 3 === 1 ? 'js' : 'md'}`),
        hasNeedle ? `${filler}\nconst needle_${f} = true\n` : filler
      )
    }
  }
  return needles
}

/**
 * Alternates baseline and candidate run by run, so load from other processes on a shared
 * machine hits both alike instead of skewing whichever phase it lands in.
 */
async function interleaved(
  baseline: () => Promise<unknown>,
  candidate: () => Promise<unknown>,
  runs: number
): Promise<[number[], number[]]> {
  for (let i = 0; i < 3; i++) {
    await baseline()
    await candidate()
  }
  const a: number[] = []
  const b: number[] = []
  const time = async (fn: () => Promise<unknown>, into: number[]): Promise<void> => {
    const start = performance.now()
    await fn()
    into.push(performance.now() - start)
  }
  for (let i = 0; i < runs; i++) {
    // Alternate who goes first, so neither always runs on a cache the other just warmed.
    if (i % 2 === 0) {
      await time(baseline, a)
      await time(candidate, b)
    } else {
      await time(candidate, b)
      await time(baseline, a)
    }
  }
  return [a.sort((x, y) => x - y), b.sort((x, y) => x - y)]
}

function rawRipgrep(pattern: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, ['--no-config', '--line-number', '--no-require-git', pattern, workspace], {
      stdio: ['ignore', 'pipe', 'ignore']
    })
    let bytes = 0
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length))
    child.on('error', reject)
    child.on('close', () => resolve(bytes))
  })
}

const needles = generateTree()
const sqlite = new SqlitePresenter({ file: join(root, 'bench.db') })
const permissions = new PermissionPresenter({ rules: new PermissionRuleStore(sqlite) })
const mcpTools: McpServerTool[] = Array.from({ length: 1000 }, (_, i) => ({
  serverId: `server${i % 25}`,
  serverName: `Server ${i % 25}`,
  // Every 40th tool has the same name as another server's tool, and a few a built-in's.
  name: i % 100 === 0 ? 'read' : `tool_${i % 40 === 0 ? 'shared' : i}`,
  exposedName: `server${i % 25}__${i % 100 === 0 ? 'read' : `tool_${i % 40 === 0 ? 'shared' : i}`}`,
  description: `Tool number ${i} does something useful with its arguments.`,
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string' }, limit: { type: 'number' } },
    required: ['query']
  }
}))
const tools = new ToolPresenter({
  mcp: { listTools: async () => mcpTools, callTool: async () => ({ content: [], isError: false }) },
  permissions,
  runtime: { recordFileSnapshot: () => {}, publishPlan: () => {} },
  sessionDataRoot: join(root, 'sessions')
})
const ctx = { sessionId: 'bench', workspaceDir: workspace, permissionMode: 'default' }
let callId = 0
const callTool = (name: string, args: unknown) =>
  tools.callTool({ id: `b${++callId}`, name, arguments: JSON.stringify(args) }, ctx)

console.log(`tree: ${DIRS * FILES_PER_DIR} files, ${needles} needle lines`)

// grep
// Same search semantics as the raw CLI (case-sensitive); the tool's default is smart case.
const grepArgs = { pattern: 'needle_\\d+', case: 'sensitive', max_results: 1000 }
const grepResult = await callTool('grep', grepArgs)
const grepMatches = (grepResult.rawData.toolResult.data as { matches: unknown[] }).matches.length
if (grepMatches !== needles) throw new Error(`grep found ${grepMatches} matches, expected ${needles}`)
const [rawGrep, toolGrep] = await interleaved(
  () => rawRipgrep('needle_\\d+'),
  () => callTool('grep', grepArgs),
  21
)
console.log(
  `grep: raw rg median ${median(rawGrep).toFixed(1)} ms, grep tool median ${median(toolGrep).toFixed(1)} ms`
)
let pass = report('grep tool / raw rg (median)', median(toolGrep) / median(rawGrep), 'x', { max: 1.2 })

// glob
const fgOptions = {
  cwd: workspace,
  dot: true,
  onlyFiles: true,
  followSymbolicLinks: false,
  suppressErrors: true,
  ignore: GLOB_ALWAYS_IGNORED,
  // The tool's rule: `unique` only for a pattern that walks from several bases (not this one).
  unique: fg.generateTasks('**/*.ts', { ignore: GLOB_ALWAYS_IGNORED }).length > 1
}
const rawFiles = await fg('**/*.ts', fgOptions)
const expected = rawFiles.length
const globResult = await callTool('glob', { pattern: '**/*.ts', max_results: 1000 })
const globData = globResult.rawData.toolResult.data as { total: number; files: string[] }
if (globData.total !== expected) throw new Error(`glob found ${globData.total} files, fast-glob ${expected}`)
// The tool must return the right 1,000 in the right order, not just the right count.
const depth = (p: string): number => p.split('/').length
const expectedFirst = rawFiles
  .sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0))
  .slice(0, 1000)
if (globData.files.join('\n') !== expectedFirst.join('\n'))
  throw new Error('glob returned other files or another order than ranked fast-glob results')
const [rawGlob, toolGlob] = await interleaved(
  () => fg('**/*.ts', fgOptions),
  () => callTool('glob', { pattern: '**/*.ts', max_results: 1000 }),
  31
)
console.log(
  `glob: fast-glob (the tool's settings) median ${median(rawGlob).toFixed(1)} ms, glob tool median ${median(toolGlob).toFixed(1)} ms`
)
pass =
  report('glob tool / fast-glob, same settings (median)', median(toolGlob) / median(rawGlob), 'x', {
    max: 1.3
  }) && pass
const fuzzy = await sample(() => callTool('glob', { pattern: 'module42 file7' }), 10)
console.log(`glob fuzzy query median ${median(fuzzy).toFixed(1)} ms (informational)`)

// The request of a chat with 1,000 MCP tools: tool search defers them, so the model gets the
// built-ins and tool_search; tools it finds are added. What is sent is each definition's function.
const requestOf = (definitions: Awaited<ReturnType<typeof tools.getAllToolDefinitions>>) => ({
  tools: definitions.length,
  bytes: Buffer.byteLength(
    JSON.stringify(definitions.map((d) => ({ type: 'function', function: d.function })))
  )
})
const definitions = await tools.getAllToolDefinitions(ctx)
if (!definitions.some((d) => d.function.name === 'tool_search'))
  throw new Error(`1,000 MCP tools were not deferred: ${definitions.length} definitions, no tool_search`)
if (new Set(definitions.map((d) => d.function.name)).size !== definitions.length)
  throw new Error('duplicate tool names')
// The model looks for tools twice; what it found is offered from the next request on.
for (const query of ['tool 42', 'shared']) {
  const found = await callTool('tool_search', { query })
  if (found.rawData.isError)
    throw new Error(`tool_search failed: ${JSON.stringify(found.rawData.toolResult)}`)
}
const withFound = await tools.getAllToolDefinitions(ctx)
if (withFound.length <= definitions.length) throw new Error('tool_search found nothing to offer')
const first = requestOf(definitions)
const later = requestOf(withFound)
console.log(
  `1,000 MCP tools: first request ${first.tools} tools, ${(first.bytes / 1024).toFixed(1)} KB; after two searches ${later.tools} tools, ${(later.bytes / 1024).toFixed(1)} KB`
)
pass =
  report('tools in a 1,000-tool chat request (after searches)', later.tools, 'tools', { max: 128 }) && pass
pass = report('size of that request', later.bytes / 1024, 'KB', { max: 40 }) && pass
const defs = await sample(() => tools.getAllToolDefinitions(ctx), 200, 20)
pass = report('building that request, 1,000 MCP tools (median)', median(defs), 'ms', { max: 5 }) && pass
console.log(
  `building the request p95 ${defs[Math.floor(defs.length * 0.95)].toFixed(2)} ms (informational; includes GC pauses)`
)

await tools.dispose()
sqlite.close()
rmSync(root, { recursive: true, force: true })
process.exit(pass ? 0 : 1)
