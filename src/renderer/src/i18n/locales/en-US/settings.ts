export default {
  settings: {
    title: 'Settings',
    back: 'Back to chat',
    nav: { general: 'General', about: 'About' },
    navMoreBefore: 'Show earlier sections',
    navMoreAfter: 'Show more sections',
    general: {
      title: 'General',
      language: 'Language',
      languageHint: 'The language of the app’s interface.',
      theme: 'Theme',
      themeHint: 'Follow the system, or pick light or dark.',
      themes: { light: 'Light', dark: 'Dark', system: 'System' },
      autoTitle: 'Name new chats with the model',
      autoTitleHint:
        'After the first answer the chat’s model suggests a short title; otherwise the first line of your message stays.',
      saved: 'Saved',
      saveFailed: 'Could not save: {message}',
      workspace: 'Default workspace folder',
      workspaceHint:
        'New chats work in this folder. Without one, each new chat gets its own scratch folder in the app’s data folder — never the folder the app was started from.',
      workspacePlaceholder: '/home/me/projects',
      workspaceSave: 'Save',
      workspaceClear: 'Clear',
      workspaceSaved: 'Default workspace saved.',
      workspaceCleared: 'New chats get their own scratch folder.'
    },
    about: {
      title: 'About',
      version: 'Version',
      dataDir: 'Data folder',
      runtime: 'Runtime',
      node: 'Node.js',
      electron: 'Electron',
      chrome: 'Chromium',
      headless: 'Headless host (browser)',
      desktop: 'Desktop app (Electron)',
      notElectron: 'not running in Electron'
    }
  }
}
