// Rendering of messages, tool results, export / backup and history search (the messages area).
export default {
  dataBackup: {
    title: 'Backup and restore',
    includeSecrets: 'Include API keys and other secrets',
    secretsWarning:
      'Anyone with the archive can use these keys. Keep it private. (Desktop keys are encrypted for this computer and may not work elsewhere.)',
    backUp: 'Back up all data',
    saved: 'Backup saved to {path}',
    restoreLabel: 'Restore a backup in the backup folder (its path as listed; upload any other file)',
    restore: 'Restore…',
    confirm:
      'Restoring replaces ALL chats, settings and skills with those in the backup. This cannot be undone. Continue?',
    replace: 'Replace my data',
    cancel: 'Cancel',
    restartToFinish: 'The backup is ready: restart the app to finish restoring.',
    downloaded: 'Backup downloaded (a copy stays on the host in {path}).',
    download: 'Download',
    upload: 'Upload a backup to restore…',
    uploadHint:
      'A .tar.gz archive made by Back up, or a daily database copy (.db). It is checked before you are asked to replace your data; after the host restarts this page reloads.',
    uploadChecked: '{name} is a readable backup. Confirm below to replace your data with it.',
    restarting: 'The backup is ready: the app restarts now to finish restoring.',
    autoTitle: 'Automatic backups',
    autoHint:
      'Once a day the database (chats, settings) is copied into the backup folder and kept this many days. 0 turns it off.',
    autoDays: 'Days to keep',
    folder: 'Backup folder',
    folderHint: 'An absolute path; empty means {default}.',
    save: 'Save',
    saved2: 'Saved.',
    list: 'Backups in the folder',
    none: 'No backups yet.',
    kind: { database: 'Daily database copy', archive: 'All data' },
    restoreThis: 'Restore…'
  },
  storage: {
    damaged:
      'The database was damaged ({reason}) and was moved to {path}. The app started with an empty one.',
    latestBackup: 'Latest backup: {path}',
    restoreLatest: 'Restore the latest backup',
    noBackup: 'There is no backup to restore.',
    dismiss: 'Dismiss'
  },
  chatExport: {
    menu: 'Export…',
    format: { markdown: 'Markdown (.md)', html: 'Web page (.html)', json: 'JSON, to import back (.json)' },
    importTitle: 'Import a chat',
    importHint: 'A chat exported as JSON comes back as a new chat with the same messages.',
    importButton: 'Choose a JSON export…',
    importNotes: 'The chat was imported; some attachments came back by name only:',
    openImported: 'Open the imported chat'
  },
  toolResult: {
    image: 'Image from the tool',
    enlarge: 'Open the image at full size',
    bytes: '{n} bytes',
    showText: 'Show the text',
    structured: 'Structured result',
    unsupported: 'A {type} item that cannot be shown',
    openFailed: 'Could not open the link'
  },
  rich: {
    preview: 'Preview'
  }
}
