export default {
  chat: {
    welcomeTitle: 'What can I help with?',
    welcomeBody: 'Chat with your models, use tools from MCP servers and let the agent work in your files.',
    noProvider: 'Add a model provider in Settings to start chatting.',
    openSettings: 'Open settings'
  }
}
