import { z } from 'zod'

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  dataDir: z.string(),
  platform: z.enum(['electron', 'node']),
  versions: z.object({
    node: z.string(),
    electron: z.string().nullable(),
    chrome: z.string().nullable()
  })
})
export type AppInfo = z.infer<typeof AppInfo>
