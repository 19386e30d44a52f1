export default {
  settings: {
    title: 'Settings',
    back: 'Back to chat',
    nav: { general: 'General', about: 'About' },
    general: {
      title: 'General',
      language: 'Language',
      languageHint: 'The language of the app’s interface.',
      theme: 'Theme',
      themeHint: 'Follow the system, or pick light or dark.',
      themes: { light: 'Light', dark: 'Dark', system: 'System' },
      autoTitle: 'Name new chats with the model',
      autoTitleHint: 'After the first answer the chat’s model suggests a short title; otherwise the first line of your message stays.',
      saved: 'Saved',
      saveFailed: 'Could not save: {message}'
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
