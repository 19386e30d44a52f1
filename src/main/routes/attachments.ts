import {
  attachmentsBeginUpload,
  attachmentsCancelUpload,
  attachmentsFinishUpload,
  attachmentsFromMcpResource,
  attachmentsPickFiles,
  attachmentsUploadChunk
} from '@shared/contracts/routes/attachments.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerAttachmentRoutes(
  router: Router,
  { attachments, platform }: Pick<Presenters, 'attachments' | 'platform'>
): void {
  router.handle(attachmentsBeginUpload, (input) => attachments.beginUpload(input))
  router.handle(attachmentsUploadChunk, (input) => attachments.uploadChunk(input))
  router.handle(attachmentsFinishUpload, async ({ uploadId }) => ({
    attachment: await attachments.finishUpload(uploadId)
  }))
  router.handle(attachmentsCancelUpload, ({ uploadId }) => ({
    cancelled: attachments.cancelUpload(uploadId)
  }))
  router.handle(attachmentsPickFiles, async ({ title }) => {
    if (!platform.pickFiles) return { supported: false as const }
    const paths = await platform.pickFiles({ title })
    return { supported: true as const, attachments: await attachments.importFiles(paths) }
  })
  router.handle(attachmentsFromMcpResource, async ({ serverId, uri, name }) => ({
    attachments: await attachments.fromMcpResource(serverId, uri, name)
  }))
}
