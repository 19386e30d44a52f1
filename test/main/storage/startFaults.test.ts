import { afterAll, describe, expect, it } from 'vitest'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { appGetStorageStatus } from '@shared/contracts/routes/app.routes'
import { configGetSettings, configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { useTempDirs } from '../helpers/tempDir'
import { removeTestHost, runHostToExit, startChildHost, type ChildHost } from './childHost'

// Real child hosts (the headless entry built from source) on real damaged files.
const tempDir = useTempDirs()
afterAll(removeTestHost)

async function withHost<T>(dataDir: string, fn: (host: ChildHost) => Promise<T>): Promise<T> {
  const host = await startChildHost(dataDir)
  try {
    return await fn(host)
  } finally {
    await host.stop()
  }
}

/** A database the app made, with a setting saved in it (what "committed before" means here). */
async function databaseWithSetting(dataDir: string): Promise<void> {
  await withHost(dataDir, (host) => host.bridge.call(configUpdateSettings, { patch: { theme: 'dark' } }))
}

function damagedCopies(dataDir: string): string[] {
  return readdirSync(dataDir).filter((name) => /^deepchat\.db\.damaged-\d{4}-\d\d-\d\dT[\d-]+Z$/.test(name))
}

describe('a damaged database at start', () => {
  it('moves a file that is not a database aside with its time, starts fresh and tells the UI where it went', async () => {
    const dataDir = join(tempDir(), 'data')
    mkdirSync(dataDir)
    const garbage = Buffer.from('this is not a SQLite database '.repeat(2000))
    writeFileSync(join(dataDir, 'deepchat.db'), garbage)
    await withHost(dataDir, async (host) => {
      const [moved] = damagedCopies(dataDir)
      expect(readFileSync(join(dataDir, moved))).toEqual(garbage)
      const status = await host.bridge.call(appGetStorageStatus, {})
      expect(status.fault).toBeNull()
      expect(status.damaged).toMatchObject({
        movedTo: join(dataDir, moved),
        reason: 'file is not a database'
      })
      // The fresh database works.
      await host.bridge.call(configUpdateSettings, { patch: { theme: 'dark' } })
      expect((await host.bridge.call(configGetSettings, {})).settings.theme).toBe('dark')
      expect(host.output.join('\n')).toContain(`moved to ${join(dataDir, moved)}`)
    })
  })

  it('moves a truncated database (and its -wal) aside: quick_check at start finds the damage', async () => {
    const dataDir = join(tempDir(), 'data')
    await databaseWithSetting(dataDir)
    const file = join(dataDir, 'deepchat.db')
    const db = new Database(file)
    db.exec('CREATE TABLE filler (x TEXT)')
    const insert = db.prepare('INSERT INTO filler VALUES (?)')
    for (let i = 0; i < 3000; i++) insert.run('x'.repeat(300))
    db.pragma('wal_checkpoint(TRUNCATE)')
    db.close()
    const size = statSync(file).size
    truncateSync(file, Math.floor(size / 2))
    writeFileSync(`${file}-wal`, '') // an empty WAL beside it moves with it
    await withHost(dataDir, async (host) => {
      const [moved] = damagedCopies(dataDir)
      expect(statSync(join(dataDir, moved)).size).toBe(Math.floor(size / 2))
      expect(existsSync(join(dataDir, `${moved}-wal`))).toBe(true)
      const status = await host.bridge.call(appGetStorageStatus, {})
      expect(status.damaged?.movedTo).toBe(join(dataDir, moved))
      expect(status.damaged?.reason).toMatch(/malformed|corrupt|missing|never used|invalid page/i)
      expect((await host.bridge.call(configGetSettings, {})).settings.theme).not.toBe('dark')
    })
  })

  it('keeps a healthy database as it is', async () => {
    const dataDir = join(tempDir(), 'data')
    await databaseWithSetting(dataDir)
    await withHost(dataDir, async (host) => {
      expect(damagedCopies(dataDir)).toEqual([])
      expect(await host.bridge.call(appGetStorageStatus, {})).toEqual({ fault: null, damaged: null })
      expect((await host.bridge.call(configGetSettings, {})).settings.theme).toBe('dark')
    })
  })
})

describe('a start that cannot go on', () => {
  it('prints one line and exits 1 (no stack, no half-started server)', async () => {
    const parent = tempDir()
    const notAFolder = join(parent, 'data')
    writeFileSync(notAFolder, 'a file where the data folder should be')
    const run = await runHostToExit(notAFolder)
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^DeepChat Desk could not start: .*EEXIST.*data/)
    ])
  })
})

describe('one host per data folder', () => {
  it('a second host exits 1 with one line naming the running one; the first keeps serving', async () => {
    const dataDir = join(tempDir(), 'data')
    await withHost(dataDir, async (first) => {
      await first.bridge.call(configUpdateSettings, { patch: { theme: 'dark' } })
      const second = await runHostToExit(dataDir)
      expect(second.code).toBe(1)
      expect(second.stdout).toBe('')
      expect(second.stderr.trim()).toBe(
        `Another DeepChat Desk host (pid ${first.pid} at ${first.origin}) is using the data folder ${dataDir}: open that one, or stop it first.`
      )
      expect((await first.bridge.call(configGetSettings, {})).settings.theme).toBe('dark')
    })
  })

  it('takes over a lock whose host is gone (a crash left it behind)', async () => {
    const dataDir = join(tempDir(), 'data')
    mkdirSync(dataDir)
    // A pid that is not running, as a crashed host leaves it.
    writeFileSync(join(dataDir, 'host.lock'), JSON.stringify({ pid: 2 ** 22 + 17, startTime: '1' }))
    await withHost(dataDir, async (host) => {
      const lock = JSON.parse(readFileSync(join(dataDir, 'host.lock'), 'utf8'))
      expect(lock).toMatchObject({ pid: host.pid, url: host.origin })
    })
    expect(existsSync(join(dataDir, 'host.lock'))).toBe(false)
  })
})

describe.runIf(process.platform !== 'win32')('file modes', () => {
  it('creates a new data folder 0700 with its database 0600, and leaves modes the user chose', async () => {
    const dataDir = join(tempDir(), 'data')
    await databaseWithSetting(dataDir)
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
    expect(statSync(join(dataDir, 'deepchat.db')).mode & 0o777).toBe(0o600)
    chmodSync(dataDir, 0o750)
    chmodSync(join(dataDir, 'deepchat.db'), 0o640)
    await withHost(dataDir, async () => {})
    expect(statSync(dataDir).mode & 0o777).toBe(0o750)
    expect(statSync(join(dataDir, 'deepchat.db')).mode & 0o777).toBe(0o640)
  })
})
