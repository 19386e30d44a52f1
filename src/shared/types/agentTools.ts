import { z } from 'zod'

/** A built-in agent tool as the settings page and the chat's tools popover show it. */
export const AgentToolInfo = z.object({
  name: z.string(),
  /** The group it is listed under (`agent-filesystem`, `agent-core`, ...). */
  group: z.string(),
  /** i18n key of its friendly name. */
  labelKey: z.string(),
  readOnly: z.boolean(),
  description: z.string(),
  /** `diagnostic`: off in every chat until switched on there, whatever this switch says. */
  exposure: z.enum(['model', 'diagnostic']),
  /** False when the user switched it off for new sessions. */
  enabled: z.boolean()
})
export type AgentToolInfo = z.infer<typeof AgentToolInfo>
