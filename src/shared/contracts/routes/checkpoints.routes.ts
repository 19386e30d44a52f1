import { z } from 'zod'
import { defineRoute } from '../define'
import { RevertResult, TurnCheckpoint, TurnFileDiff, WritePreviewFile } from '../../types/checkpoints'

const Turn = z
  .object({ sessionId: z.string().min(1).max(100), messageId: z.string().min(1).max(100) })
  .strict()

/** The files an assistant turn wrote or edited, from the tape. */
export const checkpointsListTurn = defineRoute({
  name: 'checkpoints.listTurn',
  input: Turn,
  output: z.object({ checkpoint: TurnCheckpoint })
})

/** Puts every file the turn changed back as it was before the turn; appended to the tape. */
export const checkpointsRevertTurn = defineRoute({
  name: 'checkpoints.revertTurn',
  input: Turn,
  output: z.object({ result: RevertResult })
})

/** What the files of a pending write request hold now, for the approval card's diff. */
export const checkpointsPreviewWrite = defineRoute({
  name: 'checkpoints.previewWrite',
  input: z
    .object({ sessionId: z.string().min(1).max(100), interactionId: z.string().min(1).max(100) })
    .strict(),
  output: z.object({ files: z.array(WritePreviewFile) })
})

/** Puts every file changed from this user message on back as it was before it. */
export const checkpointsRestoreBefore = defineRoute({
  name: 'checkpoints.restoreBefore',
  input: Turn,
  output: z.object({ result: RevertResult })
})

/** Each file the turn changed with its content before and after the turn (for per-file diffs). */
export const checkpointsTurnDiffs = defineRoute({
  name: 'checkpoints.turnDiffs',
  input: Turn,
  output: z.object({ files: z.array(TurnFileDiff) })
})
