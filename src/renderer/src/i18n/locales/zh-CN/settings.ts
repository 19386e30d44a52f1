import type en from '../en-US/settings'

export default {
  settings: {
    title: '设置',
    back: '返回对话',
    nav: { general: '通用', about: '关于' },
    navMoreBefore: '显示前面的分区',
    navMoreAfter: '显示更多分区',
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
      saveFailed: '保存失败：{message}',
      workspace: '默认工作区文件夹',
      workspaceHint:
        '新对话在此文件夹中工作。未设置时，每个新对话在应用数据文件夹中获得自己的临时文件夹——绝不会使用启动应用时所在的文件夹。',
      workspacePlaceholder: '/home/me/projects',
      workspaceSave: '保存',
      workspaceClear: '清除',
      workspaceSaved: '默认工作区已保存。',
      workspaceCleared: '新对话将获得各自的临时文件夹。'
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
