import type { Language } from '@shared/types/settings'

/** Words of the native parts of the app (menus, tray, notifications), in the user's language. */
export interface ShellText {
  file: string
  edit: string
  view: string
  window: string
  newChat: string
  search: string
  settings: string
  show: string
  hide: string
  quit: string
  needsAnswerTitle: string
  needsAnswerBody: string
  /** A clicked link that is not http(s) was not opened (the body names it and why). */
  linkRefusedTitle: string
}

const TEXT: Record<Language, ShellText> = {
  'en-US': {
    file: 'File',
    edit: 'Edit',
    view: 'View',
    window: 'Window',
    newChat: 'New Chat',
    search: 'Search Chats',
    settings: 'Settings…',
    show: 'Show DeepChat Desk',
    hide: 'Hide DeepChat Desk',
    quit: 'Quit DeepChat Desk',
    needsAnswerTitle: 'DeepChat Desk is waiting for you',
    needsAnswerBody: 'A chat needs your answer before it can go on.',
    linkRefusedTitle: 'Link not opened: only http and https links leave the app'
  },
  'zh-CN': {
    file: '文件',
    edit: '编辑',
    view: '视图',
    window: '窗口',
    newChat: '新建对话',
    search: '搜索对话',
    settings: '设置…',
    show: '显示 DeepChat Desk',
    hide: '隐藏 DeepChat Desk',
    quit: '退出 DeepChat Desk',
    needsAnswerTitle: 'DeepChat Desk 正在等你',
    needsAnswerBody: '有一个对话需要你的回复才能继续。',
    linkRefusedTitle: '链接未打开：只有 http 和 https 链接会在应用外打开'
  }
}

export function shellText(language: Language): ShellText {
  return TEXT[language] ?? TEXT['en-US']
}
