import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')
const eslint = new ESLint({ cwd: root })

/** Lints `code` as if it were a file at `path` in the tree (with the project's config). */
async function ruleIds(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) })
  return result.messages.map((m) => m.ruleId ?? m.message)
}

describe('tests are typed: no any', () => {
  it('fails lint on an any in a test, and on a comment that switches the rule off', async () => {
    expect(await ruleIds('test/main/some/thing.test.ts', 'export const body = {} as any\n')).toEqual([
      '@typescript-eslint/no-explicit-any'
    ])
    const switchedOff = `/* eslint-disable @typescript-eslint/no-explicit-any -- shapes */
export const body = {} as any
`
    expect(await ruleIds('test/main/some/thing.test.ts', switchedOff)).toEqual([
      '@eslint-community/eslint-comments/no-restricted-disable'
    ])
    const lineOff =
      'export const body = {} as any // eslint-disable-line @typescript-eslint/no-explicit-any\n'
    expect(await ruleIds('test/e2e/some.e2e.test.ts', lineOff)).toEqual([
      '@eslint-community/eslint-comments/no-restricted-disable'
    ])
    const allOff = '/* eslint-disable */\nexport const body = {} as any\n'
    expect((await ruleIds('test/renderer/some.test.ts', allOff)).sort()).toEqual([
      '@eslint-community/eslint-comments/no-restricted-disable',
      '@eslint-community/eslint-comments/no-unlimited-disable'
    ])
  }, 60_000)

  it('lets a test switch another rule off with a reason', async () => {
    const other = `/* eslint-disable no-control-regex -- these are the characters under test */
export const UNSAFE = /[\\u0000-\\u0008]/
`
    expect(await ruleIds('test/main/some/thing.test.ts', other)).toEqual([])
  }, 60_000)
})
