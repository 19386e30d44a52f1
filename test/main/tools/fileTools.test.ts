import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FilePermissionRequiredError } from '../../../src/main/presenter/permission'
import {
  READ_MAX_CHARS,
  READ_MAX_IMAGE_BYTES,
  READ_MAX_LINES
} from '../../../src/main/presenter/toolPresenter/agentTools/read'
import { fsToolError } from '../../../src/main/presenter/toolPresenter/agentTools/fsErrors'
import { createHarness, type Harness } from './helpers'

let h: Harness
beforeEach(() => {
  h = createHarness()
})
afterEach(async () => {
  await h.close()
})

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64'
)

describe('read', () => {
  it('returns numbered lines', async () => {
    writeFileSync(join(h.workspace, 'a.txt'), 'alpha\nbeta\ngamma\n')
    const result = await h.call('read', { path: 'a.txt' })
    expect(result.rawData.isError).toBe(false)
    expect(h.text(result)).toBe('     1\talpha\n     2\tbeta\n     3\tgamma')
    expect(result.rawData.toolResult).toMatchObject({
      ok: true,
      data: { startLine: 1, endLine: 3, truncated: false }
    })
  })

  it('pages with offset and limit and says where to continue', async () => {
    writeFileSync(
      join(h.workspace, 'long.txt'),
      Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n')
    )
    const result = await h.call('read', { path: 'long.txt', offset: 10, limit: 5 })
    const text = h.text(result)
    expect(text.split('\n').slice(0, 5)).toEqual([
      '    10\tline 10',
      '    11\tline 11',
      '    12\tline 12',
      '    13\tline 13',
      '    14\tline 14'
    ])
    expect(text).toContain('continue with offset=15')
    expect(result.rawData.toolResult.data).toMatchObject({ nextOffset: 15, truncated: true })
  })

  it(`caps one call at ${READ_MAX_LINES} lines and ${READ_MAX_CHARS} characters`, async () => {
    writeFileSync(join(h.workspace, 'many.txt'), Array.from({ length: 3000 }, () => 'x').join('\n'))
    const lines = await h.call('read', { path: 'many.txt' })
    expect(lines.rawData.toolResult.data).toMatchObject({
      endLine: READ_MAX_LINES,
      nextOffset: READ_MAX_LINES + 1
    })
    writeFileSync(
      join(h.workspace, 'wide.txt'),
      Array.from({ length: 1000 }, () => 'y'.repeat(100)).join('\n')
    )
    const wide = await h.call('read', { path: 'wide.txt' })
    expect(h.text(wide).length).toBeLessThanOrEqual(READ_MAX_CHARS + 200)
    expect((wide.rawData.toolResult.data as { truncated: boolean }).truncated).toBe(true)
  })

  it('cuts very long lines', async () => {
    writeFileSync(join(h.workspace, 'min.js'), 'z'.repeat(5000))
    expect(h.text(await h.call('read', { path: 'min.js' }))).toContain('[line cut at 2000 characters]')
  })

  it('refuses binary files with guidance', async () => {
    writeFileSync(join(h.workspace, 'blob.bin'), Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff]))
    const result = await h.call('read', { path: 'blob.bin' })
    expect(result.rawData.isError).toBe(true)
    expect(result.rawData.toolResult.error?.code).toBe('binary_file')
    expect(h.text(result)).toMatch(/binary file.*conversion tool/)
  })

  it('returns images as image content', async () => {
    writeFileSync(join(h.workspace, 'dot.png'), PNG_1PX)
    const result = await h.call('read', { path: 'dot.png' })
    expect(result.content[1]).toEqual({
      type: 'image',
      data: PNG_1PX.toString('base64'),
      mimeType: 'image/png'
    })
  })

  it('rejects a limit over the per-call cap', async () => {
    writeFileSync(join(h.workspace, 'a.txt'), 'x')
    expect(
      (await h.call('read', { path: 'a.txt', limit: READ_MAX_LINES + 1 })).rawData.toolResult.error?.code
    ).toBe('invalid_arguments')
  })

  it('refuses images over 5 MB', async () => {
    writeFileSync(join(h.workspace, 'big.png'), Buffer.alloc(READ_MAX_IMAGE_BYTES + 1))
    expect((await h.call('read', { path: 'big.png' })).rawData.toolResult.error?.code).toBe('image_too_large')
  })

  it('reports missing files, folders and offsets past the end clearly', async () => {
    expect((await h.call('read', { path: 'nope.txt' })).rawData.toolResult.error?.code).toBe('not_found')
    mkdirSync(join(h.workspace, 'dir'))
    expect((await h.call('read', { path: 'dir' })).rawData.toolResult.error?.code).toBe('is_directory')
    writeFileSync(join(h.workspace, 'short.txt'), 'one\ntwo')
    expect((await h.call('read', { path: 'short.txt', offset: 10 })).rawData.toolResult.error?.code).toBe(
      'offset_out_of_range'
    )
  })

  it('asks before reading outside the workspace, including through a symlink', async () => {
    writeFileSync(join(h.root, 'secret.txt'), 'secret')
    symlinkSync(join(h.root, 'secret.txt'), join(h.workspace, 'link.txt'))
    await expect(h.call('read', { path: '../secret.txt' })).rejects.toBeInstanceOf(
      FilePermissionRequiredError
    )
    const error = await h.call('read', { path: 'link.txt' }).catch((e) => e)
    expect(error).toBeInstanceOf(FilePermissionRequiredError)
    expect(error.request).toMatchObject({
      type: 'read',
      tool: 'read',
      server: 'agent-filesystem',
      sessionId: 'session-1',
      paths: [join(h.root, 'secret.txt')]
    })
  })
})

describe('write', () => {
  it('creates a file and its parent folders and records the snapshot', async () => {
    const result = await h.call('write', { path: 'deep/er/new.txt', content: 'hello\n' })
    expect(result.rawData.toolResult).toMatchObject({ ok: true, data: { created: true, bytes: 6 } })
    expect(readFileSync(join(h.workspace, 'deep/er/new.txt'), 'utf8')).toBe('hello\n')
    expect(h.runtime.snapshots).toEqual([
      {
        sessionId: 'session-1',
        toolCallId: result.rawData.toolCallId,
        tool: 'write',
        path: join(h.workspace, 'deep/er/new.txt'),
        previousContent: null
      }
    ])
  })

  it('overwrites and remembers the previous content', async () => {
    writeFileSync(join(h.workspace, 'f.txt'), 'old')
    const result = await h.call('write', { path: 'f.txt', content: 'new' })
    expect(h.text(result)).toMatch(/^Overwrote f.txt/)
    expect(h.runtime.snapshots[0].previousContent).toBe('old')
  })

  it('refuses to write over a folder', async () => {
    mkdirSync(join(h.workspace, 'd'))
    expect((await h.call('write', { path: 'd', content: 'x' })).rawData.toolResult.error?.code).toBe(
      'is_directory'
    )
  })

  it('asks before writing a new file under a symlinked folder that leads outside, and writes once approved', async () => {
    mkdirSync(join(h.root, 'elsewhere'))
    symlinkSync(join(h.root, 'elsewhere'), join(h.workspace, 'out'))
    const error = await h.call('write', { path: 'out/sub/new.txt', content: 'x' }).catch((e) => e)
    expect(error).toBeInstanceOf(FilePermissionRequiredError)
    expect(error.request.paths).toEqual([join(h.root, 'elsewhere', 'sub', 'new.txt')])
    h.gate.decide(error.request, 'once')
    const result = await h.call('write', { path: 'out/sub/new.txt', content: 'x' })
    expect(result.rawData.isError).toBe(false)
    expect(readFileSync(join(h.root, 'elsewhere', 'sub', 'new.txt'), 'utf8')).toBe('x')
  })

  it('gives a clear validation error for missing arguments', async () => {
    const result = await h.call('write', { path: 'x.txt' })
    expect(result.rawData.toolResult.error).toEqual({
      code: 'invalid_arguments',
      message: expect.stringContaining('content')
    })
  })
})

describe('edit', () => {
  it('replaces exactly one occurrence and shows a diff', async () => {
    writeFileSync(join(h.workspace, 'e.ts'), 'const a = 1\nconst b = 2\n')
    const result = await h.call('edit', {
      path: 'e.ts',
      old_string: 'const b = 2',
      new_string: 'const b = 3'
    })
    expect(readFileSync(join(h.workspace, 'e.ts'), 'utf8')).toBe('const a = 1\nconst b = 3\n')
    expect(h.text(result)).toContain('-const b = 2\n+const b = 3')
    expect(h.runtime.snapshots[0]).toMatchObject({
      tool: 'edit',
      previousContent: 'const a = 1\nconst b = 2\n'
    })
  })

  it('fails when the text is not unique unless replace_all is set', async () => {
    writeFileSync(join(h.workspace, 'dup.txt'), 'x\nx\nx\n')
    const refused = await h.call('edit', { path: 'dup.txt', old_string: 'x', new_string: 'y' })
    expect(refused.rawData.toolResult.error).toMatchObject({
      code: 'not_unique',
      message: expect.stringContaining('3 times')
    })
    expect(readFileSync(join(h.workspace, 'dup.txt'), 'utf8')).toBe('x\nx\nx\n')
    const all = await h.call('edit', { path: 'dup.txt', old_string: 'x', new_string: 'y', replace_all: true })
    expect(all.rawData.toolResult.data).toMatchObject({ replacements: 3 })
    expect(readFileSync(join(h.workspace, 'dup.txt'), 'utf8')).toBe('y\ny\ny\n')
  })

  it('fails when the text is absent, empty or unchanged', async () => {
    writeFileSync(join(h.workspace, 'f.txt'), 'abc')
    expect(
      (await h.call('edit', { path: 'f.txt', old_string: 'zzz', new_string: 'y' })).rawData.toolResult.error
        ?.code
    ).toBe('not_found')
    expect(
      (await h.call('edit', { path: 'f.txt', old_string: '', new_string: 'y' })).rawData.toolResult.error
        ?.code
    ).toBe('invalid_arguments')
    expect(
      (await h.call('edit', { path: 'f.txt', old_string: 'abc', new_string: 'abc' })).rawData.toolResult.error
        ?.code
    ).toBe('no_change')
    expect(
      (await h.call('edit', { path: 'missing.txt', old_string: 'a', new_string: 'b' })).rawData.toolResult
        .error?.code
    ).toBe('not_found')
  })

  it('refuses to edit a folder', async () => {
    mkdirSync(join(h.workspace, 'folder'))
    expect(
      (await h.call('edit', { path: 'folder', old_string: 'a', new_string: 'b' })).rawData.toolResult.error
        ?.code
    ).toBe('is_directory')
  })

  it('inserts $ patterns literally', async () => {
    writeFileSync(join(h.workspace, 'd.txt'), 'price: X\n')
    await h.call('edit', { path: 'd.txt', old_string: 'X', new_string: "$& $1 $$ $` $'" })
    expect(readFileSync(join(h.workspace, 'd.txt'), 'utf8')).toBe("price: $& $1 $$ $` $'\n")
  })

  it('keeps CRLF line endings in a CRLF file', async () => {
    writeFileSync(join(h.workspace, 'w.txt'), 'one\r\ntwo\r\nthree\r\n')
    await h.call('edit', { path: 'w.txt', old_string: 'one\ntwo', new_string: 'uno\ndos\nextra' })
    expect(readFileSync(join(h.workspace, 'w.txt'), 'utf8')).toBe('uno\r\ndos\r\nextra\r\nthree\r\n')
    await h.call('edit', { path: 'w.txt', old_string: 'three', new_string: 'tres', replace_all: true })
    expect(readFileSync(join(h.workspace, 'w.txt'), 'utf8')).toBe('uno\r\ndos\r\nextra\r\ntres\r\n')
  })
})

describe('file system errors', () => {
  // The tests run as root here, so a real EACCES cannot be provoked; the mapping is checked directly.
  it.each([
    ['EACCES', 'access_denied', 'denied access'],
    ['EPERM', 'access_denied', 'denied access'],
    ['ENOENT', 'not_found', 'File not found'],
    ['ENOTDIR', 'not_found', 'is not a folder'],
    ['EISDIR', 'is_directory', 'is a directory']
  ])('maps %s to %s', (errno, code, text) => {
    const error = fsToolError(Object.assign(new Error('raw'), { code: errno }), '/x/y') as Error & {
      code: string
    }
    expect(error.code).toBe(code)
    expect(error.message).toContain(text)
  })

  it('passes other errors through unchanged', () => {
    const raw = Object.assign(new Error('disk on fire'), { code: 'EIO' })
    expect(fsToolError(raw, '/x')).toBe(raw)
  })
})
