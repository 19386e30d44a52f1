import { z } from 'zod'
import { defineEvent } from '../define'
import { SettingsSchema } from '../../types/settings'

export const configSettingsChanged = defineEvent({
  name: 'config.settings.changed',
  payload: z.object({ settings: SettingsSchema, changedKeys: z.array(z.string()) })
})
