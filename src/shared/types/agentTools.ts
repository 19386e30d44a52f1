import { z } from 'zod'

/** A built-in agent tool as the settings page shows it. */
export const AgentToolInfo = z.object({
  name: z.string(),
  /** `agent-filesystem` or `agent-core`. */
  server: z.string(),
  readOnly: z.boolean(),
  description: z.string(),
  /** `diagnostic`: off in every chat until switched on there, whatever this switch says. */
  exposure: z.enum(['model', 'diagnostic']),
  /** False when the user switched it off for new sessions. */
  enabled: z.boolean()
})
export type AgentToolInfo = z.infer<typeof AgentToolInfo>
