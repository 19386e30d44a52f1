import { afterEach, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { dataListBackups, dataRestoreBackup } from '@shared/contracts/routes/data.routes'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { appChooseFolder } from '@shared/contracts/routes/app.routes'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { AutoBackups } from '../../../src/main/presenter/dataPresenter/autoBackup'
import { createRouter } from '../../../src/main/routes'
import { useTempDirs } from '../helpers/tempDir'

// Daily database copies with SQLite's online backup API, on real files.
const tempDir = useTempDirs()
const running: Presenters[] = []
afterEach(async () => {
  for (const presenters of running.splice(0)) await presenters.dispose()
})

function start(dataDir: string): Presenters {
  const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
  running.push(presenters)
  return presenters
}

async function stop(presenters: Presenters): Promise<void> {
  running.splice(running.indexOf(presenters), 1)
  await presenters.dispose()
}

const today = () => new Date().toISOString().slice(0, 10)
const titlesIn = (file: string) => {
  const db = new Database(file, { readonly: true })
  try {
    return (db.prepare('SELECT title FROM sessions ORDER BY title').all() as { title: string }[]).map(
      (r) => r.title
    )
  } finally {
    db.close()
  }
}

describe('automatic backups', () => {
  it("copies today's database into <data>/backups once a day, private, with what was committed", async () => {
    const dataDir = join(tempDir(), 'data')
    const presenters = start(dataDir)
    presenters.sessions.create({ title: 'Kept chat' })
    const made = await presenters.backups.runIfDue()
    expect(made).toBe(join(dataDir, 'backups', `deepchat-auto-${today()}.db`))
    expect(await presenters.backups.runIfDue()).toBeNull() // once a day
    expect(statSync(join(dataDir, 'backups')).mode & 0o777).toBe(0o700)
    expect(statSync(made!).mode & 0o777).toBe(0o600)
    expect(titlesIn(made!)).toEqual(['Kept chat'])
    const router = createRouter(presenters)
    const listed = await router.call(dataListBackups, {})
    expect(listed.folder).toBe(join(dataDir, 'backups'))
    expect(listed.backups.map((b) => [b.path, b.kind])).toEqual([[made, 'database']])
  })

  it('keeps N days of copies (a setting), leaves whole-data archives alone, and is off at 0', async () => {
    const folder = join(tempDir(), 'backups')
    mkdirSync(folder)
    for (const day of ['2026-02-20', '2026-02-26', '2026-02-27', '2026-02-28'])
      writeFileSync(join(folder, `deepchat-auto-${day}.db`), '')
    writeFileSync(join(folder, 'deepchat-backup-2026-01-01-10-00-00.tar.gz'), '')
    const db = new Database(':memory:')
    let keepDays = 3
    const backups = new AutoBackups({
      db,
      folder: () => folder,
      keepDays: () => keepDays,
      log: () => {},
      now: () => Date.parse('2026-03-01T09:00:00Z')
    })
    await backups.runIfDue()
    expect(readdirSync(folder).sort()).toEqual([
      'deepchat-auto-2026-02-27.db',
      'deepchat-auto-2026-02-28.db',
      'deepchat-auto-2026-03-01.db',
      'deepchat-backup-2026-01-01-10-00-00.tar.gz'
    ])
    keepDays = 0
    writeFileSync(join(folder, 'deepchat-auto-2026-03-01.db'), '')
    expect(await backups.runIfDue()).toBeNull()
    db.close()
  })

  it('writes to the folder the user chose, and refuses a relative one', async () => {
    const dataDir = join(tempDir(), 'data')
    const chosen = join(tempDir(), 'my backups')
    const presenters = start(dataDir)
    const router = createRouter(presenters)
    mkdirSync(chosen, { recursive: true })
    // A typed folder is refused; the picker's token for it is taken.
    await expect(
      router.call(configUpdateSettings, { patch: { backupFolder: chosen, autoBackupDays: 14 } })
    ).rejects.toMatchObject({ code: 'path_not_picked' })
    const { token } = await router.call(appChooseFolder, { path: chosen })
    await router.call(configUpdateSettings, { patch: { backupFolder: token!, autoBackupDays: 14 } })
    expect(presenters.config.getSettings().backupFolder).toBe(chosen)
    expect(await presenters.backups.runIfDue()).toBe(join(chosen, `deepchat-auto-${today()}.db`))
    expect(presenters.data.backup({ includeSecrets: false }).path.startsWith(chosen)).toBe(true)
    await expect(
      router.call(configUpdateSettings, { patch: { backupFolder: 'backups' } })
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('an absolute path')
    })
  })

  it('restores a daily copy at the next start and keeps the database it replaced', async () => {
    const dataDir = join(tempDir(), 'data')
    const first = start(dataDir)
    first.sessions.create({ title: 'Before the backup' })
    const copy = (await first.backups.runIfDue())!
    first.sessions.create({ title: 'After the backup' })
    const staged = await createRouter(first).call(dataRestoreBackup, { path: copy })
    expect(staged.restarting).toBe(false)
    await stop(first)

    const second = start(dataDir)
    expect(second.sessions.list({ limit: 10 }).sessions.map((s) => s.title)).toEqual(['Before the backup'])
    const kept = readdirSync(dataDir).find((name) => name.startsWith('deepchat.db.before-restore-'))!
    expect(titlesIn(join(dataDir, kept)).sort()).toEqual(['After the backup', 'Before the backup'])
  })

  it('refuses a file that is not a database copy, staging nothing', async () => {
    const dataDir = join(tempDir(), 'data')
    const presenters = start(dataDir)
    // In the backup folder, so the list shows it (anything outside the list is refused first).
    mkdirSync(join(dataDir, 'backups'), { recursive: true })
    const fake = join(dataDir, 'backups', 'deepchat-auto-2026-01-01.db')
    writeFileSync(fake, 'not a database at all, just text '.repeat(200))
    await expect(createRouter(presenters).call(dataRestoreBackup, { path: fake })).rejects.toMatchObject({
      code: 'invalid_backup',
      message: expect.stringContaining('not a DeepChat Desk database')
    })
    expect(existsSync(join(dataDir, 'restore-pending.db'))).toBe(false)
    // The database in use is not a backup of itself, nor is any file outside the backup list.
    for (const path of [join(dataDir, 'deepchat.db'), join(tempDir(), 'deepchat-auto-2026-01-02.db')]) {
      if (!existsSync(path)) writeFileSync(path, 'x')
      await expect(createRouter(presenters).call(dataRestoreBackup, { path })).rejects.toMatchObject({
        code: 'not_found',
        message: expect.stringContaining('backup list')
      })
    }
    expect(() => presenters.data.stageRestore(join(dataDir, 'deepchat.db'))).toThrow(/not a readable backup/)
    expect(existsSync(join(dataDir, 'restore-pending.db'))).toBe(false)
  })

  it('after a damaged database was moved aside, offers the latest backup and restores it', async () => {
    const dataDir = join(tempDir(), 'data')
    const first = start(dataDir)
    first.sessions.create({ title: 'Saved chat' })
    const copy = (await first.backups.runIfDue())!
    await stop(first)
    writeFileSync(join(dataDir, 'deepchat.db'), 'garbage '.repeat(5000))
    for (const suffix of ['-wal', '-shm']) writeFileSync(join(dataDir, `deepchat.db${suffix}`), '')

    const second = start(dataDir)
    const { damaged } = second.storage.status()
    expect(damaged).toMatchObject({ reason: 'file is not a database', latestBackup: copy })
    expect(second.sessions.list({ limit: 10 }).sessions).toEqual([])
    await createRouter(second).call(dataRestoreBackup, { path: damaged!.latestBackup! })
    await stop(second)

    const third = start(dataDir)
    expect(third.sessions.list({ limit: 10 }).sessions.map((s) => s.title)).toEqual(['Saved chat'])
    expect(existsSync(damaged!.movedTo)).toBe(true)
  })
})
