import { z } from 'zod'
import { defineRoute } from '../define'
import { WebSearchSettingsPatch, WebSearchSettingsView } from '../../types/webSearch'

export const webSearchGetSettings = defineRoute({
  name: 'webSearch.getSettings',
  input: z.object({}).strict(),
  output: z.object({ settings: WebSearchSettingsView })
})

export const webSearchUpdateSettings = defineRoute({
  name: 'webSearch.updateSettings',
  input: z.object({ patch: WebSearchSettingsPatch }).strict(),
  output: z.object({ settings: WebSearchSettingsView })
})
