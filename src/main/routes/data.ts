import {
  dataBackup,
  dataExportChat,
  dataImportChat,
  dataRestoreBackup
} from '@shared/contracts/routes/data.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerDataRoutes(router: Router, { data }: Pick<Presenters, 'data'>): void {
  router.handle(dataExportChat, ({ sessionId, format }) => data.exportChat(sessionId, format))
  router.handle(dataImportChat, async ({ content }) => ({ session: await data.importChat(content) }))
  router.handle(dataBackup, ({ includeSecrets }) => data.backup({ includeSecrets }))
  router.handle(dataRestoreBackup, ({ path }) => ({
    ...data.stageRestore(path),
    restartRequired: true as const
  }))
}
