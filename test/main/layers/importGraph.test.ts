import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../helpers/tempDir'
import { arrowsBetween, circles, compilerOptionsOf, importGraph, roomGraph } from './importGraph'

const root = join(import.meta.dirname, '..', '..', '..')
const options = compilerOptionsOf(join(root, 'tsconfig.node.json'))

const tempDir = useTempDirs()

/** Writes `files` (path -> source) under a new temp folder and returns it. */
function tree(files: Record<string, string>): string {
  const dir = tempDir()
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), source)
  }
  return dir
}

describe('the import graph of src/main', () => {
  const graph = importGraph(join(root, 'src', 'main'), options)

  it('reads the real imports, type-only ones included', () => {
    expect(graph.get('presenter/index.ts')?.size).toBeGreaterThan(20)
    expect(graph.get('presenter/sessionPresenter/settings.ts')).toContain(
      'presenter/sessionPresenter/agentState.ts'
    )
  })

  it('has no circle between files', () => {
    expect(circles(graph)).toEqual([])
  })

  it('has no back-arrow: presenter domains and the other folders import one way only', () => {
    const found = circles(roomGraph(graph)).map((group) =>
      group.flatMap((from) =>
        group.filter((to) => to !== from).flatMap((to) => arrowsBetween(graph, from, to))
      )
    )
    expect(found).toEqual([])
  })
})

describe('the checks themselves', () => {
  it('find a circle through a type-only import and a back-arrow between two folders', () => {
    const dir = tree({
      'presenter/upper/a.ts': "import type { B } from './b'\nexport type A = B[]\n",
      'presenter/upper/b.ts': "import type { A } from './a'\nexport type B = { a: A }\n",
      'presenter/lower/index.ts': "import { upper } from '../upper/tool'\nexport const lower = upper\n",
      'presenter/upper/tool.ts': 'export const upper = 1\n',
      'presenter/upper/index.ts': "export { lower } from '../lower'\n"
    })
    const graph = importGraph(dir, options)
    expect(circles(graph)).toEqual([['presenter/upper/a.ts', 'presenter/upper/b.ts']])
    expect(circles(roomGraph(graph))).toEqual([['presenter/lower', 'presenter/upper']])
    expect(arrowsBetween(graph, 'presenter/lower', 'presenter/upper')).toEqual([
      'presenter/lower/index.ts -> presenter/upper/tool.ts'
    ])
  })
})
