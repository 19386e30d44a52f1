import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  chownSync,
  closeSync,
  truncateSync,
  mkdirSync,
  openSync,
  rmSync,
  statSync,
  writeSync
} from 'node:fs'
import { join } from 'node:path'
import { appStorageChanged } from '@shared/contracts/events/app.events'
import { chatStreamDelta } from '@shared/contracts/events/chat.events'
import { appGetStorageStatus } from '@shared/contracts/routes/app.routes'
import { chatSendMessage } from '@shared/contracts/routes/chat.routes'
import { startFakeLlm, type FakeLlm } from '../../fixtures/llm/fakeLlm'
import { useTempDirs } from '../helpers/tempDir'
import { removeTestHost, startChildHost, type ChildHost } from './childHost'
import { addFakeProvider, nextEvent, sendAndWait, transcript } from './chat'

// Real child hosts writing real files while the disk fills, the folder vanishes or the file is
// read-only; the provider is the only fake. Each checks the words the client gets and that the
// turn committed before the fault is still there.
const tempDir = useTempDirs()
const isRoot = process.getuid?.() === 0
const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
afterAll(removeTestHost)

const FIRST_ANSWER = 'The first answer, saved before anything failed.'
/** A reply far larger than the free space: about 6 MB in 300 deltas. */
const HUGE_REPLY = {
  steps: [
    { type: 'text' as const, text: Array.from({ length: 300 }, (_, i) => `${i} ${'z'.repeat(20_000)} `) }
  ]
}

async function fakeLlm(script: Parameters<typeof startFakeLlm>[0]['script']): Promise<FakeLlm> {
  const llm = await startFakeLlm({ kind: 'openai', script })
  cleanups.push(() => llm.close())
  return llm
}

async function host(dataDir: string, options: Parameters<typeof startChildHost>[1] = {}): Promise<ChildHost> {
  const started = await startChildHost(dataDir, options)
  cleanups.push(() => started.stop())
  return started
}

/** Starts a chat whose first turn is saved; returns its id. */
async function firstTurnSaved(served: ChildHost, llm: FakeLlm): Promise<string> {
  await addFakeProvider(served.bridge, llm)
  const { sessionId, end } = await sendAndWait(served.bridge, 'first question')
  expect(end.kind).toBe('completed')
  return sessionId
}

function expectFirstTurnKept(rows: Awaited<ReturnType<typeof transcript>>): void {
  expect(rows.slice(0, 2)).toEqual([
    { role: 'user', status: 'sent', text: 'first question' },
    { role: 'assistant', status: 'sent', text: FIRST_ANSWER }
  ])
}

/** Fills the file system holding `dir` but for `leave` bytes; returns the filler file. */
function fillDisk(dir: string, leave: number): string {
  const filler = join(dir, 'filler.bin')
  const fd = openSync(filler, 'w')
  const chunk = Buffer.alloc(64 * 1024, 1)
  try {
    for (let size = chunk.length; size >= 1; size = Math.floor(size / 2))
      for (;;) {
        try {
          writeSync(fd, chunk, 0, size)
        } catch {
          break
        }
      }
  } finally {
    closeSync(fd)
  }
  truncateSync(filler, statSync(filler).size - leave)
  return filler
}

describe.runIf(isRoot && process.platform === 'linux')('disk full (a small tmpfs)', () => {
  it('ends the reply with the disk-full words, keeps the saved turn, and refuses sends until space is freed', async () => {
    const mount = tempDir()
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0700', 'tmpfs', mount])
    cleanups.push(() => void execFileSync('umount', ['-l', mount]))
    const dataDir = join(mount, 'data')
    const llm = await fakeLlm([
      { steps: [{ type: 'text', text: FIRST_ANSWER }] },
      HUGE_REPLY,
      { steps: [{ type: 'text', text: 'Back.' }] }
    ])
    const served = await host(dataDir)
    const sessionId = await firstTurnSaved(served, llm)
    // Room for the question, not for the reply.
    const filler = fillDisk(mount, 1536 * 1024)
    const words = `The disk holding ${dataDir} is full. Free some space there, then send again; everything saved before is kept.`

    const storageEvent = nextEvent(served.bridge, appStorageChanged, (p) => p.fault !== null)
    const second = await sendAndWait(served.bridge, 'second question', sessionId)
    expect(second.end).toMatchObject({
      kind: 'failed',
      payload: { status: 'error', error: { code: 'storage', message: words } }
    })
    expect((await storageEvent).fault).toEqual({ kind: 'full', folder: dataDir, message: words })
    const afterFault = await transcript(served.bridge, sessionId)
    expect(afterFault[2]).toEqual({ role: 'user', status: 'sent', text: 'second question' })
    expect(afterFault[3]).toMatchObject({ role: 'assistant', status: 'error' })
    expect(afterFault[3].text.endsWith(words)).toBe(true)
    expectFirstTurnKept(await transcript(served.bridge, sessionId))
    // Still full: refused with the same words, nothing written.
    await expect(served.bridge.call(chatSendMessage, { sessionId, text: 'third' })).rejects.toMatchObject({
      code: 'storage',
      message: words
    })
    expect((await served.bridge.call(appGetStorageStatus, {})).fault?.message).toBe(words)

    rmSync(filler)
    const again = await sendAndWait(served.bridge, 'after freeing space', sessionId)
    expect(again.end.kind).toBe('completed')
    expect((await served.bridge.call(appGetStorageStatus, {})).fault).toBeNull()
    const rows = await transcript(served.bridge, sessionId)
    expectFirstTurnKept(rows)
    expect(rows.at(-1)).toEqual({ role: 'assistant', status: 'sent', text: 'Back.' })
  }, 90_000)
})

describe.runIf(process.platform === 'linux')('a file-size limit (RLIMIT_FSIZE in the child host)', () => {
  it('ends the reply with the I/O-error words and keeps the saved turn', async () => {
    const dataDir = join(tempDir(), 'data')
    const llm = await fakeLlm([{ steps: [{ type: 'text', text: FIRST_ANSWER }] }, HUGE_REPLY])
    const served = await host(dataDir, { wrapper: ['prlimit', `--fsize=${4 * 1024 * 1024}`, '--'] })
    const sessionId = await firstTurnSaved(served, llm)
    const second = await sendAndWait(served.bridge, 'second question', sessionId)
    const words = `Writing to ${dataDir} failed with a disk I/O error. Check the disk, then send again; everything saved before is kept.`
    expect(second.end).toMatchObject({
      kind: 'failed',
      payload: { error: { code: 'storage', message: words } }
    })
    const rows = await transcript(served.bridge, sessionId)
    expectFirstTurnKept(rows)
    expect(rows.at(-1)).toMatchObject({ role: 'assistant', status: 'error' })
    expect(rows.at(-1)!.text.endsWith(words)).toBe(true)
  }, 90_000)
})

describe('the data folder removed while the host runs', () => {
  it('ends the running reply with the folder-gone words, says so, and refuses further sends', async () => {
    const dataDir = join(tempDir(), 'data')
    const slow = {
      steps: Array.from({ length: 100 }, (_, i) => [
        { type: 'text' as const, text: `w${i} ` },
        { type: 'delay' as const, ms: 100 }
      ]).flat()
    }
    const llm = await fakeLlm([{ steps: [{ type: 'text', text: FIRST_ANSWER }] }, slow])
    const served = await host(dataDir)
    const sessionId = await firstTurnSaved(served, llm)
    const words = `The data folder ${dataDir} was removed while the app was running, so nothing more can be saved. Restart the app to start again with an empty data folder.`

    const streaming = nextEvent(served.bridge, chatStreamDelta, (p) => p.sessionId === sessionId)
    const storageEvent = nextEvent(served.bridge, appStorageChanged, (p) => p.fault !== null)
    const second = sendAndWait(served.bridge, 'second question', sessionId)
    await streaming
    rmSync(dataDir, { recursive: true, force: true })
    expect((await second).end).toMatchObject({
      kind: 'failed',
      payload: { status: 'error', error: { code: 'storage', message: words } }
    })
    expect((await storageEvent).fault).toEqual({ kind: 'folder_gone', folder: dataDir, message: words })
    expect(served.output.join('\n')).toContain(`The data folder ${dataDir} (or its database) was removed`)
    await expect(served.bridge.call(chatSendMessage, { sessionId, text: 'third' })).rejects.toMatchObject({
      code: 'storage',
      message: words
    })
    // What the open database holds is still shown (it is the only copy left).
    expectFirstTurnKept(await transcript(served.bridge, sessionId))
  }, 90_000)
})

describe.runIf(isRoot && process.platform === 'linux')(
  'a read-only database (run as nobody: root ignores modes)',
  () => {
    it('starts, shows the history, refuses sends with the read-only words, and keeps the mode 0444', async () => {
      const root = tempDir()
      chmodSync(root, 0o755)
      const dataDir = join(root, 'data')
      const home = join(root, 'home')
      mkdirSync(dataDir, { mode: 0o700 })
      mkdirSync(home)
      chownSync(dataDir, 65534, 65534)
      chownSync(home, 65534, 65534)
      const asNobody = {
        wrapper: ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', '--'],
        env: { HOME: home, XDG_CONFIG_HOME: home }
      }
      const llm = await fakeLlm([{ steps: [{ type: 'text', text: FIRST_ANSWER }] }])
      const first = await startChildHost(dataDir, asNobody)
      const sessionId = await firstTurnSaved(first, llm)
      await first.stop()
      chmodSync(join(dataDir, 'deepchat.db'), 0o444)

      const served = await host(dataDir, asNobody)
      const words = `The database in ${dataDir} is read-only, so nothing new can be saved. Give your user write permission on it, then send again; everything saved before is kept.`
      expect((await served.bridge.call(appGetStorageStatus, {})).fault).toEqual({
        kind: 'readonly',
        folder: dataDir,
        message: words
      })
      expectFirstTurnKept(await transcript(served.bridge, sessionId))
      await expect(served.bridge.call(chatSendMessage, { sessionId, text: 'second' })).rejects.toMatchObject({
        code: 'storage',
        message: words
      })
      expect(statSync(join(dataDir, 'deepchat.db')).mode & 0o777).toBe(0o444)
      expect(llm.generationRequests()).toHaveLength(1)
    }, 90_000)
  }
)
