import { z } from 'zod'
import { PermissionMode } from './permission'
import { globalShortcutProblem } from '../accelerator'
import { GenerationSettings } from './session'
import { isPickToken } from './pickedPath'

export const Language = z.enum(['en-US', 'zh-CN'])
export type Language = z.infer<typeof Language>

export const Theme = z.enum(['light', 'dark', 'system'])
export type Theme = z.infer<typeof Theme>

/** An Electron accelerator that shows the window from anywhere; '' turns it off. */
export const GlobalShortcut = z
  .string()
  .max(100)
  .superRefine((value, ctx) => {
    const problem = value === '' ? null : globalShortcutProblem(value)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })

/** An environment variable's name as a shell writes it (`MY_TOOL_HOME`). */
export const EnvVariableName = z
  .string()
  .max(200)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'letters, digits and _, not starting with a digit')

/** The value type of every setting; defaults live in SETTINGS_DEFAULTS. */
const settingFields = {
  language: Language,
  theme: Theme,
  /** The permission mode a new session starts in. */
  defaultPermissionMode: PermissionMode,
  /** Absolute folder new sessions use as their workspace; '' means none chosen (the page sends a pick token). */
  defaultWorkspaceDir: z.string().max(4096),
  /** Built-in agent tools switched off for new sessions (by tool name). */
  disabledAgentTools: z.array(z.string().min(1).max(100)).max(100),
  /** A new chat is named by its model after the first answer (else its first line stays). */
  autoTitle: z.boolean(),
  /** The desktop app checks for, downloads and offers new versions (packaged builds only). */
  autoUpdate: z.boolean(),
  /** Shows the desktop app's window from anywhere; '' means no shortcut. */
  globalShortcut: GlobalShortcut,
  /** Instructions and parameters a new chat starts with (an assistant chosen for it replaces them). */
  defaultGenerationSettings: GenerationSettings,
  /** Above this many MCP tools a chat's model finds them with tool search instead of getting all. */
  mcpToolSearchThreshold: z.number().int().min(10).max(2000),
  /**
   * Variables of the app's environment that commands, MCP servers and agents also get, besides
   * the built-in allowlist (`childEnvironment`); every other variable is absent for them.
   */
  allowedEnvVariables: z.array(EnvVariableName).max(200),
  /** Days a daily automatic backup of the database is kept; 0 turns automatic backups off. */
  autoBackupDays: z.number().int().min(0).max(365),
  /**
   * Absolute folder for backups; '' means `backups` in the data folder. From the page it comes as
   * a pick token (shared/types/pickedPath.ts), which the route turns into the picked folder.
   */
  backupFolder: z
    .string()
    .max(4096)
    .refine(
      (value) => value === '' || isPickToken(value) || /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(value),
      'an absolute path, or empty'
    )
}

export const SETTINGS_DEFAULTS: { [K in keyof typeof settingFields]: z.infer<(typeof settingFields)[K]> } = {
  language: 'en-US',
  theme: 'system',
  defaultPermissionMode: 'default',
  defaultWorkspaceDir: '',
  disabledAgentTools: [],
  autoTitle: true,
  autoUpdate: true,
  globalShortcut: 'CommandOrControl+Shift+D',
  defaultGenerationSettings: {},
  mcpToolSearchThreshold: 100,
  allowedEnvVariables: [],
  autoBackupDays: 7,
  backupFolder: ''
}

/**
 * Every typed setting. Each key is validated on every write; unknown keys are rejected so a
 * typo never silently creates a setting.
 */
export const SettingsSchema = z.object(settingFields).strict()
export type Settings = z.infer<typeof SettingsSchema>
export type SettingKey = keyof Settings

/** A change to some settings. Built without defaults so an absent key is never reset. */
export const SettingsPatch = z
  .object(settingFields)
  .partial()
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { message: 'patch must change at least one setting' })
export type SettingsPatch = z.infer<typeof SettingsPatch>
