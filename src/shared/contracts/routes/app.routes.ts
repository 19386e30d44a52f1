import { z } from 'zod'
import { defineRoute } from '../define'
import { AppInfo } from '../../types/app'

export const appGetInfo = defineRoute({
  name: 'app.getInfo',
  input: z.object({}).strict(),
  output: AppInfo
})

export const appOpenExternal = defineRoute({
  name: 'app.openExternal',
  input: z.object({ url: z.url({ protocol: /^https?$/ }) }).strict(),
  output: z.object({ opened: z.boolean() })
})

/**
 * A native folder dialog (Electron only). The headless host answers `{supported: false}` and the
 * UI asks for a path instead; `path` is null when the user cancelled.
 */
export const appPickFolder = defineRoute({
  name: 'app.pickFolder',
  input: z.object({ title: z.string().max(200).optional(), defaultPath: z.string().max(4096).optional() }).strict(),
  output: z.discriminatedUnion('supported', [
    z.object({ supported: z.literal(false) }),
    z.object({ supported: z.literal(true), path: z.string().nullable() })
  ])
})
