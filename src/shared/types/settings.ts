import { z } from 'zod'

export const Language = z.enum(['en-US', 'zh-CN'])
export type Language = z.infer<typeof Language>

export const Theme = z.enum(['light', 'dark', 'system'])
export type Theme = z.infer<typeof Theme>

/**
 * Every typed setting with its default. Each key is validated on every write; unknown keys are
 * rejected so a typo never silently creates a setting.
 */
export const SettingsSchema = z
  .object({
    language: Language.default('en-US'),
    theme: Theme.default('system')
  })
  .strict()
export type Settings = z.infer<typeof SettingsSchema>
export type SettingKey = keyof Settings

export const SettingsPatch = SettingsSchema.partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'patch must change at least one setting' })
export type SettingsPatch = z.infer<typeof SettingsPatch>
