import type { Migration } from './types'
import { settingsMigration } from './001_settings'

/** Every migration, in version order. Each domain adds its own file and one line here. */
export const allMigrations: readonly Migration[] = [settingsMigration]
