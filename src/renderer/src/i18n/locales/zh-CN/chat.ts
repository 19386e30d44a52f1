import type en from '../en-US/chat'

export default {
  chat: {
    welcomeTitle: '有什么可以帮你？',
    welcomeBody: '与模型对话，使用 MCP 服务器提供的工具，让智能体在你的文件中工作。',
    noProvider: '请先在设置中添加模型服务商，然后开始对话。',
    openSettings: '打开设置'
  }
} satisfies typeof en
