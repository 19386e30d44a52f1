export default {
  app: { name: 'DeepChat Desk', offline: 'Disconnected from the app — reconnecting…' },
  sidebar: {
    newChat: 'New chat',
    conversations: 'Conversations',
    empty: 'No conversations yet',
    settings: 'Settings'
  },
  chat: {
    welcomeTitle: 'What can I help with?',
    welcomeBody: 'Chat with your models, use tools from MCP servers and let the agent work in your files.',
    noProvider: 'Add a model provider in Settings to start chatting.',
    openSettings: 'Open settings'
  },
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
  },
  languages: { 'en-US': 'English', 'zh-CN': '简体中文' },
  errors: { loadFailed: 'Could not load: {message}' }
}
