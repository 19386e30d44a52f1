import type { Migration } from './types'
import { settingsMigration } from './001_settings'
import { sessionsTapeMigration } from './002_sessions_tape'
import { permissionRulesMigration } from './003_permission_rules'
import { memoryMigration } from './004_memory'
import { subagentsMigration } from './005_subagents'
import { sessionMcpSwitchesMigration } from './006_session_mcp_switches'
import { queuedInputsMigration } from './007_queued_inputs'
import { acpSessionsMigration } from './008_acp_sessions'
import { streamJournalMigration } from './009_stream_journal'
import { composerDraftsMigration } from './010_composer_drafts'
import { networkRulesMigration } from './011_network_rules'
import { knowledgeMigration } from './012_knowledge'

/** Every migration, in version order. Each domain adds its own file and one line here. */
export const allMigrations: readonly Migration[] = [
  settingsMigration,
  sessionsTapeMigration,
  permissionRulesMigration,
  memoryMigration,
  subagentsMigration,
  sessionMcpSwitchesMigration,
  queuedInputsMigration,
  acpSessionsMigration,
  streamJournalMigration,
  composerDraftsMigration,
  networkRulesMigration,
  knowledgeMigration
]
