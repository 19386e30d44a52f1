import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FilePermissionRequiredError } from '../../../src/main/presenter/permission'
import { fuzzyPathScore } from '../../../src/main/presenter/toolPresenter/agentTools/fuzzyPath'
import { createHarness, type Harness } from './helpers'

let h: Harness
function put(path: string, content = ''): void {
  const full = join(h.workspace, path)
  mkdirSync(dirname(full), { recursive: true })
  writeFileSync(full, content)
}

beforeEach(() => {
  h = createHarness()
  put('.gitignore', 'dist/\n*.log\n')
  put('src/stores/chatStore.ts', 'export const chatStore = 1\n// TODO: fix\n')
  put('src/components/ChatInput.vue', '<template>TODO later</template>\n')
  put('src/main/tool.ts', 'function Foo() {}\nconst foo = 1\nconst FOO = 2\n')
  put('src/deep/nested/.gitignore', 'secret.ts\n')
  put('src/deep/nested/secret.ts', 'TODO hidden by nested gitignore\n')
  put('src/deep/nested/visible.ts', 'ok\n')
  put('dist/bundle.js', 'TODO in build output\n')
  put('debug.log', 'TODO in log\n')
  put('node_modules/pkg/index.js', 'TODO in deps\n')
  put('README.md', '# readme\n')
})
afterEach(async () => {
  await h.close()
})

const files = (result: Awaited<ReturnType<Harness['call']>>): string[] =>
  (result.rawData.toolResult.data as { files: string[] }).files

describe('glob', () => {
  it('matches glob patterns, skipping .gitignore (root and nested), node_modules and .git', async () => {
    const result = await h.call('glob', { pattern: '**/*.ts' })
    expect(files(result).sort()).toEqual([
      'src/deep/nested/visible.ts',
      'src/main/tool.ts',
      'src/stores/chatStore.ts'
    ])
    expect(files(await h.call('glob', { pattern: '**/*.js' }))).toEqual([])
    expect(files(await h.call('glob', { pattern: '*.log' }))).toEqual([])
  })

  it('notices a changed .gitignore between searches', async () => {
    expect(files(await h.call('glob', { pattern: '**/*.vue' }))).toEqual(['src/components/ChatInput.vue'])
    put('.gitignore', 'dist/\n*.log\n*.vue\n')
    expect(files(await h.call('glob', { pattern: '**/*.vue' }))).toEqual([])
    put('src/components/.gitignore', '!keep.vue\n')
    expect(files(await h.call('glob', { pattern: '**/*.ts' })).sort()).toEqual([
      'src/deep/nested/visible.ts',
      'src/main/tool.ts',
      'src/stores/chatStore.ts'
    ])
  })

  it('ranks shallower paths first and respects max_results', async () => {
    const result = await h.call('glob', { pattern: '**/*.{md,ts,vue}', max_results: 2 })
    expect(files(result)).toEqual(['README.md', 'src/components/ChatInput.vue'])
    expect(result.rawData.toolResult.data).toMatchObject({ total: 5, truncated: true })
    expect(h.text(result)).toContain('Showing the best 2 of 5')
  })

  it('treats input without glob characters as a fuzzy path query, best match first', async () => {
    const result = await h.call('glob', { pattern: 'chatstore' })
    expect(files(result)[0]).toBe('src/stores/chatStore.ts')
    expect(result.rawData.toolResult.data).toMatchObject({ mode: 'fuzzy' })
    expect(files(await h.call('glob', { pattern: 'chat input' }))[0]).toBe('src/components/ChatInput.vue')
    expect(files(await h.call('glob', { pattern: 'qqqzzz' }))).toEqual([])
  })

  it('searches below path, relative to it', async () => {
    expect(files(await h.call('glob', { pattern: '*.ts', path: 'src/main' }))).toEqual(['tool.ts'])
  })

  it('applies an ancestor .gitignore when searching a subfolder', async () => {
    put('src/dist/x.ts')
    expect(files(await h.call('glob', { pattern: '**/*.ts', path: 'src' }))).not.toContain('dist/x.ts')
  })

  it('rejects patterns that climb out and asks for folders outside the workspace', async () => {
    expect((await h.call('glob', { pattern: '../**/*.ts' })).rawData.toolResult.error?.code).toBe(
      'invalid_pattern'
    )
    await expect(h.call('glob', { pattern: '*', path: h.root })).rejects.toBeInstanceOf(
      FilePermissionRequiredError
    )
    expect((await h.call('glob', { pattern: '*', path: 'missing-dir' })).rawData.toolResult.error?.code).toBe(
      'not_found'
    )
  })

  it('says when path is a file, not a folder', async () => {
    expect((await h.call('glob', { pattern: '*', path: 'README.md' })).rawData.toolResult.error?.code).toBe(
      'not_a_directory'
    )
  })

  it('scores file-name matches above folder-name matches', () => {
    expect(fuzzyPathScore('src/stores/chatStore.ts', 'store')!).toBeGreaterThan(
      fuzzyPathScore('src/stores/index.ts', 'store')!
    )
    expect(fuzzyPathScore('a/b.ts', 'xyz')).toBeNull()
  })
})

describe('grep', () => {
  const matches = (result: Awaited<ReturnType<Harness['call']>>) =>
    (
      result.rawData.toolResult.data as {
        matches: { path: string; line: number; text: string; before: unknown[]; after: unknown[] }[]
      }
    ).matches

  it('finds matches with real ripgrep, honouring .gitignore and skipping node_modules', async () => {
    const result = await h.call('grep', { pattern: 'TODO' })
    expect(
      matches(result)
        .map((m) => m.path)
        .sort()
    ).toEqual(['src/components/ChatInput.vue', 'src/stores/chatStore.ts'])
    expect(h.text(result)).toContain('src/stores/chatStore.ts\n2: // TODO: fix')
  })

  it('supports regex, literal mode and the case options', async () => {
    expect(
      matches(await h.call('grep', { pattern: 'f(o)+\\b', path: 'src/main' })).map((m) => m.line)
    ).toEqual([1, 2, 3])
    expect(
      matches(await h.call('grep', { pattern: 'foo', case: 'sensitive', path: 'src/main' })).map(
        (m) => m.line
      )
    ).toEqual([2])
    expect(matches(await h.call('grep', { pattern: 'FOO', path: 'src/main' })).map((m) => m.line)).toEqual([
      3
    ])
    expect(
      matches(await h.call('grep', { pattern: 'FOO', case: 'insensitive', path: 'src/main' })).map(
        (m) => m.line
      )
    ).toEqual([1, 2, 3])
    expect(matches(await h.call('grep', { pattern: 'Foo()', literal: true })).map((m) => m.line)).toEqual([1])
  })

  it('adds context lines', async () => {
    const [match] = matches(
      await h.call('grep', { pattern: 'const foo', case: 'sensitive', path: 'src/main', context: 1 })
    )
    expect(match.before).toEqual([{ line: 1, text: 'function Foo() {}' }])
    expect(match.after).toEqual([{ line: 3, text: 'const FOO = 2' }])
  })

  it('does not repeat a context line between two close matches', async () => {
    put('close.txt', 'a\nhit one\nb\nhit two\nc\n')
    const found = matches(await h.call('grep', { pattern: 'hit', path: 'close.txt', context: 1 }))
    expect(found.map((m) => [m.line, m.before, m.after])).toEqual([
      [2, [{ line: 1, text: 'a' }], [{ line: 3, text: 'b' }]],
      [4, [], [{ line: 5, text: 'c' }]]
    ])
  })

  it('filters by glob and file type and scopes by path', async () => {
    expect(matches(await h.call('grep', { pattern: 'TODO', glob: '*.vue' })).map((m) => m.path)).toEqual([
      'src/components/ChatInput.vue'
    ])
    expect(matches(await h.call('grep', { pattern: 'TODO', type: 'ts' })).map((m) => m.path)).toEqual([
      'src/stores/chatStore.ts'
    ])
    expect(matches(await h.call('grep', { pattern: 'TODO', path: 'src/components' }))).toHaveLength(1)
  })

  it('stops at max_results and says so', async () => {
    put('many.txt', Array.from({ length: 500 }, (_, i) => `hit ${i}`).join('\n'))
    const result = await h.call('grep', { pattern: 'hit', max_results: 20 })
    expect(matches(result)).toHaveLength(20)
    expect(result.rawData.toolResult.data).toMatchObject({ truncated: true })
    expect(h.text(result)).toContain('Stopped at 20 matches')
  })

  it('says when nothing matches and reports a bad regex clearly', async () => {
    const none = await h.call('grep', { pattern: 'no-such-text-anywhere' })
    expect(none.rawData.toolResult).toMatchObject({
      ok: true,
      summary: 'No matches for no-such-text-anywhere'
    })
    const bad = await h.call('grep', { pattern: 'a(b' })
    expect(bad.rawData.toolResult.error).toMatchObject({
      code: 'grep_failed',
      message: expect.stringMatching(/regex/i)
    })
  })

  it('reports a missing search path', async () => {
    expect((await h.call('grep', { pattern: 'x', path: 'nowhere' })).rawData.toolResult.error?.code).toBe(
      'not_found'
    )
  })

  it('fails clearly when the ripgrep binary is missing', async () => {
    const broken = createHarness({ agentTools: { resolveRipgrep: async () => join(h.root, 'no', 'rg') } })
    try {
      const result = await broken.call('grep', { pattern: 'x' })
      expect(result.rawData.toolResult.error).toMatchObject({
        code: 'ripgrep_missing',
        message: expect.stringContaining('ripgrep binary could not be found')
      })
    } finally {
      await broken.close()
    }
  })
})
