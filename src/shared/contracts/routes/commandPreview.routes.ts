import { z } from 'zod'
import { defineRoute } from '../define'
import { CommandPreview } from '../../types/commandPreview'

/**
 * The preview of a pending command request: the command run in the sandbox on a copy of the
 * workspace, without network. Started by the first call, shared by later ones; resolves when
 * the preview has finished (within its time limit).
 */
export const commandPreviewGet = defineRoute({
  name: 'commandPreview.get',
  input: z
    .object({ sessionId: z.string().min(1).max(100), interactionId: z.string().min(1).max(100) })
    .strict(),
  output: z.object({ preview: CommandPreview })
})
