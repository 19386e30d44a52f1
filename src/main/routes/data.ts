import {
  dataBackup,
  dataDownloadBackup,
  dataUploadBackup,
  dataExportChat,
  dataImportChat,
  dataListBackups,
  dataRestoreBackup
} from '@shared/contracts/routes/data.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerDataRoutes(
  router: Router,
  { data, platform }: Pick<Presenters, 'data' | 'platform'>
): void {
  router.handle(dataExportChat, ({ sessionId, format }) => data.exportChat(sessionId, format))
  router.handle(dataImportChat, ({ content }) => data.importChat(content))
  router.handle(dataBackup, ({ includeSecrets }) => data.backup({ includeSecrets }))
  router.handle(dataListBackups, () => data.listBackups())
  router.handle(dataDownloadBackup, ({ path }) => data.readBackup(path))
  router.handle(dataUploadBackup, ({ fileName, base64 }) => data.receiveBackup(fileName, base64))
  // Only a backup the list shows (the backup folder, where uploads land too): never any other path.
  router.handle(dataRestoreBackup, ({ path }) => {
    const staged = data.stageRestore(data.listedBackup(path))
    return { ...staged, restarting: platform.desktop?.relaunch() ?? platform.restartBackEnd?.() ?? false }
  })
}
