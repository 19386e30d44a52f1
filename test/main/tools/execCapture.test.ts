import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'
import { createHarness, type Harness } from './helpers'

/**
 * exec snapshots the workspace (for the turn's checkpoint) only around a command that can
 * write it: a line the classifier knows only reads, or any line in the read-only sandbox,
 * runs at the cost of the shell alone.
 */
let h: Harness
beforeEach(() => {
  h = createHarness({ sandbox: true })
  writeFileSync(join(h.workspace, 'notes.txt'), 'before\n')
})
afterEach(async () => {
  await h.close()
})

const shadowRoot = () => join(h.dataRoot, 'session-1', 'shell-checkpoints')
type Data = { sandboxed?: boolean; exitCode?: number; changesNotRecorded?: string }
const data = (result: Awaited<ReturnType<Harness['call']>>): Data => result.rawData.toolResult.data as Data

describe('which commands exec snapshots the workspace around', () => {
  it('takes no snapshot for a read-only line on the host, and records a writing one with its old content', async () => {
    const read = await h.call('exec', { command: 'cat notes.txt | wc -l' }, { permissionMode: 'full_access' })
    expect(data(read)).toMatchObject({ sandboxed: false, exitCode: 0 })
    expect(existsSync(shadowRoot())).toBe(false)
    expect(h.runtime.snapshots).toEqual([])

    const write = await h.call(
      'exec',
      { command: 'echo after > notes.txt' },
      { permissionMode: 'full_access' }
    )
    expect(data(write)).toMatchObject({ sandboxed: false, exitCode: 0 })
    expect(readFileSync(join(h.workspace, 'notes.txt'), 'utf8')).toBe('after\n')
    expect(h.runtime.snapshots).toMatchObject([
      { tool: 'exec', path: join(h.workspace, 'notes.txt'), previousContent: 'before\n' }
    ])
  })

  it.skipIf(withoutBwrap)(
    'takes no snapshot in the read-only sandbox, and one in the writable sandbox',
    NEEDS_BWRAP,
    async () => {
      const read = await h.call('exec', { command: 'ls -la' })
      expect(data(read)).toMatchObject({ sandboxed: true, exitCode: 0 })
      expect(existsSync(shadowRoot())).toBe(false)

      const write = await h.call(
        'exec',
        { command: 'echo boxed > notes.txt' },
        { permissionMode: 'accept_edits' }
      )
      expect(data(write)).toMatchObject({ sandboxed: true, exitCode: 0 })
      expect(h.runtime.snapshots).toMatchObject([{ tool: 'exec', previousContent: 'before\n' }])
    }
  )

  it('runs a writing command whose snapshot cannot be taken, and tells the model undo will not cover it', async () => {
    await h.call('exec', { command: 'echo one > notes.txt' }, { permissionMode: 'full_access' })
    // Where the chat keeps old contents is now a file: nothing can be kept there.
    rmSync(shadowRoot(), { recursive: true, force: true })
    writeFileSync(shadowRoot(), '')
    const result = await h.call(
      'exec',
      { command: 'echo two > notes.txt' },
      { permissionMode: 'full_access' }
    )
    expect(data(result)).toMatchObject({
      exitCode: 0,
      changesNotRecorded: expect.stringContaining('snapshot failed')
    })
    expect(h.text(result)).toContain('were not recorded for undo')
    expect(readFileSync(join(h.workspace, 'notes.txt'), 'utf8')).toBe('two\n')
    expect(h.runtime.snapshots).toHaveLength(1)
  })
})
