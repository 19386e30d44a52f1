import type en from '../en-US/agentTools'

export default {
  settingsAgentTools: {
    nav: '智能体工具',
    title: '智能体工具',
    subtitle: '新对话中智能体可以使用的内置工具，以及它的工作文件夹。',
    folder: '默认工作区文件夹',
    folderHint: '新对话从此文件夹开始。请使用已存在文件夹的绝对路径。',
    folderPlaceholder: '/home/me/projects',
    clear: '清除',
    folderSaved: '工作区文件夹已保存。',
    folderCleared: '工作区文件夹已清除。',
    saved: '已保存',
    readOnly: '只读',
    changesThings: '会修改内容',
    enableNamed: '启用 {name}',
    servers: { filesystem: '文件与命令', core: '智能体' },
    descriptions: {
      read: '读取文件或其中一部分。',
      write: '创建或覆盖文件。',
      edit: '替换文件中的文本。',
      glob: '按名称模式查找文件。',
      grep: '搜索文件内容（ripgrep）。',
      exec: '运行 shell 命令。',
      process: '查看或停止后台命令。',
      deepchat_question: '向你提出选择题。',
      update_plan: '显示并更新分步计划。'
    }
  }
} satisfies typeof en
