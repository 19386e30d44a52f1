import type enUS from './en-US'

const zhCN: typeof enUS = {
  app: { name: 'DeepChat Desk', offline: '与应用的连接已断开，正在重连…' },
  sidebar: {
    newChat: '新对话',
    conversations: '对话',
    empty: '还没有对话',
    settings: '设置'
  },
  chat: {
    welcomeTitle: '有什么可以帮你？',
    welcomeBody: '与模型对话，使用 MCP 服务器提供的工具，让智能体在你的文件中工作。',
    noProvider: '请先在设置中添加模型服务商，然后开始对话。',
    openSettings: '打开设置'
  },
  settings: {
    title: '设置',
    back: '返回对话',
    nav: { general: '通用', about: '关于' },
    general: {
      title: '通用',
      language: '语言',
      languageHint: '应用界面使用的语言。',
      theme: '主题',
      themeHint: '跟随系统，或选择浅色、深色。',
      themes: { light: '浅色', dark: '深色', system: '跟随系统' },
      saved: '已保存',
      saveFailed: '保存失败：{message}'
    },
    about: {
      title: '关于',
      version: '版本',
      dataDir: '数据目录',
      runtime: '运行环境',
      node: 'Node.js',
      electron: 'Electron',
      chrome: 'Chromium',
      headless: '无界面主机（浏览器）',
      desktop: '桌面应用（Electron）',
      notElectron: '未在 Electron 中运行'
    }
  },
  languages: { 'en-US': 'English', 'zh-CN': '简体中文' },
  errors: { loadFailed: '加载失败：{message}' }
}

export default zhCN
