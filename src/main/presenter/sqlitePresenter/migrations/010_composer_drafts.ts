import type { Migration } from './types'

/**
 * What the user is writing in each chat's composer (and on the new-chat page), so switching chats,
 * reloading the page or restarting the app loses none of it. A chat's draft goes with the chat.
 */
export const composerDraftsMigration: Migration = {
  version: 10,
  name: 'composer_drafts',
  up(db) {
    db.exec(`
      CREATE TABLE composer_drafts (
        scope TEXT PRIMARY KEY,
        session_id TEXT UNIQUE REFERENCES sessions(id) ON DELETE CASCADE,
        text TEXT NOT NULL,
        attachments_json TEXT NOT NULL,
        assistant_id TEXT,
        updated_at INTEGER NOT NULL
      );
    `)
  }
}
