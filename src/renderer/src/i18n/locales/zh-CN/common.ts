import type en from '../en-US/common'

export default {
  app: { name: 'DeepChat Desk', offline: '与应用的连接已断开，正在重连…' },
  sidebar: {
    newChat: '新对话',
    conversations: '对话',
    empty: '还没有对话',
    settings: '设置'
  },
  dialog: { close: '关闭' },
  languages: { 'en-US': 'English', 'zh-CN': '简体中文' },
  errors: { loadFailed: '加载失败：{message}' }
} satisfies typeof en
