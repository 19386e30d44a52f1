import { afterEach, describe, expect, it } from 'vitest'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  dataBackup,
  dataDownloadBackup,
  dataRestoreBackup,
  dataUploadBackup
} from '@shared/contracts/routes/data.routes'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createRouter } from '../../../src/main/routes'
import { PENDING_RESTORE } from '../../../src/main/presenter/dataPresenter/backup'
import { useTempDirs } from '../helpers/tempDir'

/**
 * A browser cannot reach the host's folders: a backup is downloaded through the bridge and a
 * restore uploaded through it, checked before the user is asked to replace their data.
 */
const tempDir = useTempDirs()
let presenters: Presenters | undefined
afterEach(async () => {
  await presenters?.dispose()
  presenters = undefined
})

function app() {
  const dataDir = tempDir()
  presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
  return { dataDir, router: createRouter(presenters), presenters }
}

describe('backups through the browser', () => {
  it('downloads a listed backup byte for byte, and nothing that is not one', async () => {
    const { dataDir, router } = app()
    presenters!.sessions.create({ title: 'kept chat' })
    const made = await router.call(dataBackup, { includeSecrets: false })
    const file = await router.call(dataDownloadBackup, { path: made.path })
    expect(file.name).toMatch(/^deepchat-backup-.*\.tar\.gz$/)
    expect(Buffer.from(file.base64, 'base64').equals(readFileSync(made.path))).toBe(true)

    for (const path of [
      join(dataDir, 'deepchat.db'),
      '/etc/passwd',
      join(made.path, '..', '..', 'deepchat.db')
    ])
      await expect(router.call(dataDownloadBackup, { path })).rejects.toMatchObject({ code: 'not_found' })
  })

  it('checks an uploaded backup before anything is staged; a good one stages like any backup', async () => {
    const { dataDir, router } = app()
    const made = await router.call(dataBackup, { includeSecrets: false })
    const archive = readFileSync(made.path).toString('base64')
    const before = readdirSync(join(dataDir, 'backups')).sort()

    // Not a backup: refused at upload, nothing kept, nothing staged.
    await expect(
      router.call(dataUploadBackup, {
        fileName: 'photo.tar.gz',
        base64: Buffer.from('not a tarball').toString('base64')
      })
    ).rejects.toMatchObject({ code: 'invalid_backup' })
    await expect(
      router.call(dataUploadBackup, { fileName: 'notes.txt', base64: archive })
    ).rejects.toMatchObject({ code: 'invalid_backup' })
    expect(readdirSync(join(dataDir, 'backups')).sort()).toEqual(before)
    expect(existsSync(join(dataDir, PENDING_RESTORE))).toBe(false)

    const checked = await router.call(dataUploadBackup, { fileName: 'my-backup.tar.gz', base64: archive })
    expect(checked).toMatchObject({ kind: 'archive', manifest: { includesSecrets: false } })
    expect(checked.path.startsWith(join(dataDir, 'backups'))).toBe(true)
    expect(existsSync(join(dataDir, PENDING_RESTORE))).toBe(false)
    const staged = await router.call(dataRestoreBackup, { path: checked.path })
    expect(staged.restarting).toBe(false)
    expect(existsSync(join(dataDir, PENDING_RESTORE))).toBe(true)
  })
})
