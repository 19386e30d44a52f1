import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  ensureParentFolders,
  realInside,
  removeVerified
} from '../../../src/main/presenter/toolPresenter/agentTools/safeFile'
import { useTempDirs } from '../helpers/tempDir'

// The delete and mkdir of the no-follow file layer that checkpoints revert through.
const tempDir = useTempDirs()

describe('removeVerified', () => {
  it('deletes a regular file and says whether there was one', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'a.txt'), 'a')
    expect(await removeVerified(join(dir, 'a.txt'), 'a.txt')).toBe(true)
    expect(existsSync(join(dir, 'a.txt'))).toBe(false)
    expect(await removeVerified(join(dir, 'a.txt'), 'a.txt')).toBe(false)
  })

  it('refuses a file that is now a link, keeping both the link and its target', async () => {
    const dir = tempDir()
    const outside = join(tempDir(), 'target')
    writeFileSync(outside, 'keep')
    symlinkSync(outside, join(dir, 'a.txt'))
    await expect(removeVerified(join(dir, 'a.txt'), 'a.txt')).rejects.toMatchObject({ code: 'path_changed' })
    expect(lstatSync(join(dir, 'a.txt')).isSymbolicLink()).toBe(true)
    expect(readFileSync(outside, 'utf8')).toBe('keep')
  })

  it('refuses a file whose folder is now a link outside, deleting nothing there', async () => {
    const dir = tempDir()
    const outside = tempDir()
    writeFileSync(join(outside, 'a.txt'), 'keep')
    symlinkSync(outside, join(dir, 'sub'))
    await expect(removeVerified(join(dir, 'sub', 'a.txt'), 'sub/a.txt')).rejects.toMatchObject({
      code: 'path_changed'
    })
    expect(readFileSync(join(outside, 'a.txt'), 'utf8')).toBe('keep')
  })
})

describe('ensureParentFolders', () => {
  it('makes the missing folders, and none below a folder that is a link', async () => {
    const dir = tempDir()
    await ensureParentFolders(join(dir, 'x', 'y', 'f.txt'), 'x/y/f.txt')
    expect(lstatSync(join(dir, 'x', 'y')).isDirectory()).toBe(true)

    const outside = tempDir()
    symlinkSync(outside, join(dir, 'link'))
    await expect(
      ensureParentFolders(join(dir, 'link', 'deep', 'f.txt'), 'link/deep/f.txt')
    ).rejects.toMatchObject({
      code: 'path_changed'
    })
    expect(readdirSync(outside)).toEqual([])
  })
})

describe('realInside', () => {
  it('places a path under the real workspace, and refuses one outside or through a link', async () => {
    const root = tempDir()
    mkdirSync(join(root, 'src'))
    symlinkSync(tempDir(), join(root, 'out'))
    expect(await realInside(root, root, join(root, 'src', 'new', 'f.ts'))).toEqual({
      real: join(root, 'src', 'new', 'f.ts')
    })
    expect(await realInside(root, root, join(root, 'out', 'f.ts'))).toEqual({ refused: 'link' })
    expect(await realInside(root, root, join(root, '..', 'elsewhere.ts'))).toEqual({
      refused: 'outside_workspace'
    })
    expect(await realInside(root, root, root)).toEqual({ refused: 'outside_workspace' })
    expect(await realInside(root, root, 'relative.ts')).toEqual({ refused: 'outside_workspace' })
  })
})
