import {
  checkpointsListTurn,
  checkpointsPreviewWrite,
  checkpointsRestoreBefore,
  checkpointsRevertTurn,
  checkpointsTurnDiffs
} from '@shared/contracts/routes/checkpoints.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerCheckpointRoutes(
  router: Router,
  { checkpoints }: Pick<Presenters, 'checkpoints'>
): void {
  router.handle(checkpointsListTurn, ({ sessionId, messageId }) => ({
    checkpoint: checkpoints.listTurn(sessionId, messageId)
  }))
  router.handle(checkpointsRevertTurn, async ({ sessionId, messageId }) => ({
    result: await checkpoints.revertTurn(sessionId, messageId)
  }))
  router.handle(checkpointsRestoreBefore, async ({ sessionId, messageId }) => ({
    result: await checkpoints.restoreBefore(sessionId, messageId)
  }))
  router.handle(checkpointsTurnDiffs, async ({ sessionId, messageId }) => ({
    files: await checkpoints.turnDiffs(sessionId, messageId)
  }))
  router.handle(checkpointsPreviewWrite, async ({ sessionId, interactionId }) => ({
    files: await checkpoints.previewWrite(sessionId, interactionId)
  }))
}
