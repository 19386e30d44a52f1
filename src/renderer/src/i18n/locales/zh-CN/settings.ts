import type en from '../en-US/settings'

export default {
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
      autoTitle: '由模型为新对话命名',
      autoTitleHint: '第一次回答后，由该对话的模型拟一个简短标题；关闭则保留你第一条消息的首行。',
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
  }
} satisfies typeof en
