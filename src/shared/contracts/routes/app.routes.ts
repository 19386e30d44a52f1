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
