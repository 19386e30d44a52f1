export default {
  app: { name: 'DeepChat Desk', offline: 'Disconnected from the app — reconnecting…' },
  sidebar: {
    newChat: 'New chat',
    conversations: 'Conversations',
    empty: 'No conversations yet',
    settings: 'Settings'
  },
  dialog: { close: 'Close' },
  languages: { 'en-US': 'English', 'zh-CN': '简体中文' },
  errors: { loadFailed: 'Could not load: {message}' }
}
