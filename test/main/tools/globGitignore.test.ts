import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import fg from 'fast-glob'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  GitignoreScope,
  fileRuleEndings,
  rulesMatchByName
} from '../../../src/main/presenter/toolPresenter/agentTools/gitignoreFilter'
import { findFiles } from '../../../src/main/presenter/toolPresenter/agentTools/glob'
import { createHarness, type Harness } from './helpers'

// .gitignore handling of the glob tool as git applies it: nested files, negations, ignored
// folders never walked, and the ranking contract (shallower first, then plain string order).

let h: Harness
function put(path: string, content = ''): void {
  const full = join(h.workspace, path)
  mkdirSync(dirname(full), { recursive: true })
  writeFileSync(full, content)
}
const files = (result: Awaited<ReturnType<Harness['call']>>): string[] =>
  (result.rawData.toolResult.data as { files: string[] }).files
const glob = async (args: { pattern: string; path?: string; max_results?: number }): Promise<string[]> =>
  files(await h.call('glob', args))

beforeEach(() => {
  h = createHarness()
})
afterEach(async () => {
  await h.close()
})

describe('glob and .gitignore', () => {
  it('applies a negation inside one .gitignore', async () => {
    put('.gitignore', '*.log\n!keep.log\n')
    put('a.log')
    put('keep.log')
    put('deep/er/b.log')
    put('deep/er/keep.log')
    expect((await glob({ pattern: '**/*.log' })).sort()).toEqual(['deep/er/keep.log', 'keep.log'])
  })

  it('lets a deeper .gitignore re-include a file a shallower one ignores, as git does', async () => {
    put('.gitignore', '*.vue\n')
    put('src/components/.gitignore', '!keep.vue\n')
    put('src/components/keep.vue')
    put('src/components/drop.vue')
    put('src/other/keep.vue')
    expect(await glob({ pattern: '**/*.vue' })).toEqual(['src/components/keep.vue'])
    // The same when the search starts below the folder with the ignoring rule.
    expect(await glob({ pattern: '**/*.vue', path: 'src' })).toEqual(['components/keep.vue'])
  })

  it('lets a deeper .gitignore re-include a file a shallower path rule ignores', async () => {
    put('.gitignore', 'docs/*.md\n')
    put('docs/.gitignore', '!README.md\n')
    put('docs/README.md')
    put('docs/other.md')
    expect(await glob({ pattern: '**/*.md' })).toEqual(['docs/README.md'])
  })

  it('lets a deeper .gitignore ignore what a shallower one re-includes', async () => {
    put('.gitignore', '*.tmp\n!important.tmp\n')
    put('lib/.gitignore', 'important.tmp\n')
    put('important.tmp')
    put('lib/important.tmp')
    expect(await glob({ pattern: '**/*.tmp' })).toEqual(['important.tmp'])
  })

  it('re-includes a folder under an ignored parent pattern with a negation', async () => {
    put('.gitignore', 'out/*\n!out/keep/\n')
    put('out/keep/a.ts')
    put('out/drop/b.ts')
    put('out/c.ts')
    put('src/d.ts')
    expect(await glob({ pattern: '**/*.ts' })).toEqual(['src/d.ts', 'out/keep/a.ts'])
  })

  it('ignores everything below an ignored folder, even what a .gitignore inside it re-includes', async () => {
    put('.gitignore', 'build/\n')
    put('build/.gitignore', '!*\n')
    put('build/out.js')
    put('build/nested/more.js')
    put('src/build/generated.js')
    put('src/main.js')
    expect(await glob({ pattern: '**/*.js' })).toEqual(['src/main.js'])
    // A pattern whose base is the ignored folder itself still finds nothing there.
    expect(await glob({ pattern: 'build/**/*.js' })).toEqual([])
  })

  it('treats a rule without a slash as matching folders of that name too', async () => {
    put('.gitignore', 'cache\n')
    put('cache/a.js')
    put('src/cache/deep/b.js')
    put('src/cache.js')
    expect(await glob({ pattern: '**/*.js' })).toEqual(['src/cache.js'])
  })

  it('matches rules without regard to case, as before', async () => {
    put('.gitignore', '*.LOG\nreadme\n*.Txt\n')
    put('a.log')
    put('B.LOG')
    put('docs/README')
    put('docs/x.TXT')
    put('docs/y.txt')
    put('c.md')
    expect(await glob({ pattern: '**/*' })).toEqual(['.gitignore', 'c.md'])
  })

  it('anchors rules with a slash to the folder of their .gitignore', async () => {
    put('.gitignore', '/only-root.ts\r\nsrc/gen/\r\n')
    put('only-root.ts')
    put('src/only-root.ts')
    put('src/gen/x.ts')
    put('lib/src/gen/y.ts')
    expect((await glob({ pattern: '**/*.ts' })).sort()).toEqual(['lib/src/gen/y.ts', 'src/only-root.ts'])
    expect((await glob({ pattern: '**/*.ts', path: 'src' })).sort()).toEqual(['only-root.ts'])
  })

  it('applies .gitignore files to patterns without a walk (brace lists of plain names)', async () => {
    put('.gitignore', 'b.ts\n')
    put('src/a.ts')
    put('src/b.ts')
    expect(await glob({ pattern: 'src/{a,b}.ts' })).toEqual(['src/a.ts'])
  })

  it('also filters fuzzy queries', async () => {
    put('.gitignore', 'secret*\n')
    put('notes/secret-plan.md')
    put('notes/plan.md')
    expect(await glob({ pattern: 'plan' })).toEqual(['notes/plan.md'])
  })

  it('keeps the limit and the truncation message with .gitignore applied', async () => {
    put('.gitignore', '*.skip\n')
    for (let i = 0; i < 30; i++) {
      put(`d${i % 3}/f${i}.txt`)
      put(`d${i % 3}/f${i}.skip`)
    }
    const result = await h.call('glob', { pattern: '**/*', max_results: 5 })
    expect(result.rawData.toolResult.data).toMatchObject({ total: 31, truncated: true })
    expect(files(result)).toEqual(['.gitignore', 'd0/f0.txt', 'd0/f12.txt', 'd0/f15.txt', 'd0/f18.txt'])
    expect(h.text(result)).toContain('[Showing the best 5 of 31; narrow the pattern or path.]')
  })
})

describe('glob agrees with git', () => {
  // Git itself is the reference: `git ls-files --others --exclude-standard` lists exactly the
  // files no .gitignore excludes (nothing is tracked in a fresh repository).
  const gitUntracked = (cwd: string, scope = '.'): string[] =>
    execFileSync('git', ['ls-files', '--others', '--exclude-standard', '-z', '--', scope], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' }
    })
      .split('\0')
      .filter(Boolean)

  it('returns the files git does not ignore, from the root and from a subfolder', async () => {
    put('.gitignore', '*.log\n!keep.log\nbuild/\n/root-only.txt\ndocs/*.md\nout/*\n!out/keep/\ncache\n')
    put('docs/.gitignore', '!README.md\n')
    put('src/.gitignore', '*.gen.ts\n!important.gen.ts\n')
    put('src/lib/.gitignore', 'important.gen.ts\n')
    const tree = [
      'a.log',
      'keep.log',
      'sub/b.log',
      'sub/keep.log',
      'build/x.js',
      'src/build/y.js',
      'root-only.txt',
      'src/root-only.txt',
      'docs/README.md',
      'docs/other.md',
      'docs/sub/deep.md',
      'out/keep/a.ts',
      'out/drop/b.ts',
      'out/c.ts',
      'cache/z.js',
      'src/cache/q.js',
      'src/a.gen.ts',
      'src/important.gen.ts',
      'src/lib/important.gen.ts',
      'src/lib/other.gen.ts',
      'src/main.ts',
      'README.md'
    ]
    for (const file of tree) put(file)
    execFileSync('git', ['init', '-q'], { cwd: h.workspace })
    const fromRoot = gitUntracked(h.workspace)
    expect(fromRoot).toContain('src/important.gen.ts') // the fixture means something to git
    expect(fromRoot).not.toContain('src/lib/important.gen.ts')
    expect((await glob({ pattern: '**/*', max_results: 1000 })).sort()).toEqual(fromRoot.sort())
    const fromSrc = gitUntracked(h.workspace, 'src').map((file) => file.slice('src/'.length))
    expect((await glob({ pattern: '**/*', path: 'src', max_results: 1000 })).sort()).toEqual(fromSrc.sort())
  })
})

describe('glob ranking', () => {
  it('orders by depth, then by the whole path in plain string order, at any cut', async () => {
    // Folder names chosen so that folder order and whole-path order could disagree ('-' < '/' < '0').
    const names = [
      'a/x.md',
      'a-b/y.md',
      'a0/z.md',
      'a/b/c.md',
      'a-b/c/d.md',
      'A/q.md',
      'z.md',
      'B.md',
      'a/Z.md',
      'a/y.md',
      'a.b/x.md',
      'é/x.md'
    ]
    for (const name of names) put(name)
    const depth = (p: string): number => p.split('/').length
    const expected = [...names].sort((a, b) => depth(a) - depth(b) || (a < b ? -1 : a > b ? 1 : 0))
    for (let max = 1; max <= names.length; max++) {
      expect(await glob({ pattern: '**/*.md', max_results: max })).toEqual(expected.slice(0, max))
    }
  })
})

describe('glob duplicates', () => {
  it('lists a file once, whether patterns overlap in one walk or walks overlap', async () => {
    put('src/a.ts')
    put('src/main/b.ts')
    put('src/main/deep/c.ts')
    const all = ['src/a.ts', 'src/main/b.ts', 'src/main/deep/c.ts']
    expect(await glob({ pattern: '**/*.{ts,ts}' })).toEqual(all)
    expect(await glob({ pattern: '{src,src/main}/**/*.ts' })).toEqual(all)
    expect(await glob({ pattern: '{src/main,src/main/deep}/*.ts' })).toEqual([
      'src/main/b.ts',
      'src/main/deep/c.ts'
    ])
  })
})

describe('GitignoreScope', () => {
  let dir: string
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'gitignore-scope-')))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))
  const write = (path: string, content = ''): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }

  it('never lists an ignored folder during the walk', async () => {
    write('.gitignore', 'dist/\n')
    write('pkg/.gitignore', 'cache/\n')
    write('dist/deep/a.ts')
    write('pkg/cache/b.ts')
    write('pkg/src/c.ts')
    write('cache/d.ts')
    const scope = new GitignoreScope(dir, dir, dir)
    const listed: string[] = []
    type Listing<E> = (error: NodeJS.ErrnoException | null, entries: E[]) => void
    const readdir: fg.FileSystemAdapter['readdir'] = (
      path: string,
      options: { withFileTypes: true } | Listing<string>,
      callback?: Listing<fg.Entry['dirent']>
    ): void => {
      listed.push(relative(dir, path).split('\\').join('/'))
      if (typeof options === 'function') scope.readdir(path, options)
      else if (callback) scope.readdir(path, options, callback)
    }
    const found = await fg('**/*.ts', { cwd: dir, dot: true, onlyFiles: true, fs: { readdir } })
    expect(found.sort()).toEqual(['cache/d.ts', 'pkg/src/c.ts'])
    expect(listed.sort()).toEqual(['', 'cache', 'pkg', 'pkg/src'])
  })

  it('also works as a plain readdir (names only) and passes listing errors through', async () => {
    write('.gitignore', '*.tmp\n')
    write('a.tmp')
    write('b.ts')
    const scope = new GitignoreScope(dir, dir, dir)
    const list = (path: string): Promise<unknown[]> =>
      new Promise((resolve, reject) =>
        scope.readdir(path, (error, entries) => (error ? reject(error) : resolve(entries)))
      )
    expect((await list(dir)).sort()).toEqual(['.gitignore', 'a.tmp', 'b.ts'])
    expect(scope.keep('', ['a.tmp', 'b.ts'])).toEqual(['b.ts'])
    await expect(list(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('does not walk ignored folders through the glob tool either', async () => {
    write('.gitignore', 'big/\n')
    for (let i = 0; i < 50; i++) write(`big/f${i}/x.ts`)
    write('keep.ts')
    const result = await findFiles(dir, dir, '**/*.ts', 100)
    expect(result).toEqual({ mode: 'glob', files: ['keep.ts'], total: 1 })
  })

  it('treats an unreadable .gitignore as absent and notices when one appears', async () => {
    write('a.ts')
    mkdirSync(join(dir, 'sub', '.gitignore'), { recursive: true })
    write('sub/b.ts')
    expect((await findFiles(dir, dir, '**/*.ts', 100)).files).toEqual(['a.ts', 'sub/b.ts'])
    write('.gitignore', 'a.ts\n')
    expect((await findFiles(dir, dir, '**/*.ts', 100)).files).toEqual(['sub/b.ts'])
  })
})

describe('fileRuleEndings', () => {
  const endings = (text: string): string | null => {
    const table = fileRuleEndings(text)
    return (
      table &&
      [...table.keys()]
        .filter((code) => table[code])
        .map((code) => String.fromCharCode(code))
        .join('')
    )
  }

  it('lists the last characters of rules that can ignore a file, in both cases', () => {
    expect(endings('*.log\nbuild/\n!keep.ts\n# comment*\n\ndist  \n')).toBe('GTgt')
    expect(endings('')).toBe('')
  })

  it('gives up when a rule does not pin its last character', () => {
    for (const text of ['*.lo?', 'cache*', 'x[ab]', 'name\\ ', 'tab\t', 'caf\u00e9'])
      expect(endings(text)).toBeNull()
  })
})

describe('rulesMatchByName', () => {
  it('is true only when no rule has a slash other than a trailing one', () => {
    expect(rulesMatchByName('*.log\nbuild/\n# comment with a/slash\n\n!keep.log\n')).toBe(true)
    expect(rulesMatchByName('*.log\nsrc/gen\n')).toBe(false)
    expect(rulesMatchByName('/dist\n')).toBe(false)
    expect(rulesMatchByName('**/tmp\n')).toBe(false)
    expect(rulesMatchByName('build/  \r\n')).toBe(true)
  })
})
