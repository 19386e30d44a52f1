import { z } from 'zod'
import { defineRoute } from '../define'
import { SettingsPatch, SettingsSchema } from '../../types/settings'

export const configGetSettings = defineRoute({
  name: 'config.getSettings',
  input: z.object({}).strict(),
  output: z.object({ settings: SettingsSchema })
})

export const configUpdateSettings = defineRoute({
  name: 'config.updateSettings',
  input: z.object({ patch: SettingsPatch }).strict(),
  output: z.object({ settings: SettingsSchema })
})
