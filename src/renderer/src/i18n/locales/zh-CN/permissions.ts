import type en from '../en-US/permissions'

export default {
  settingsPermissions: {
    nav: '权限',
    title: '权限',
    subtitle: '智能体无需询问即可执行的操作，以及你让它记住的决定。',
    defaultMode: '新对话的默认模式',
    defaultModeHint: '每个对话仍可单独修改自己的模式。',
    modes: {
      default: { label: '询问', hint: '写入文件、运行命令或调用会改动内容的工具前先询问。' },
      accept_edits: { label: '接受编辑', hint: '直接编辑工作区内的文件；运行命令和工具仍会询问。' },
      full_access: { label: '完全访问', hint: '从不询问，但拒绝规则依然生效。仅在可以承受损失的文件夹中使用。' }
    },
    saved: '已保存',
    rules: '已记住的规则',
    rulesHint: '在选择“始终允许”或“始终拒绝”时创建。拒绝规则优先于允许规则。',
    noRules: '没有已记住的规则。',
    effect: '效果',
    scope: '范围',
    pattern: '匹配模式',
    created: '创建时间',
    actions: '操作',
    effects: { allow: '允许', deny: '拒绝' },
    kinds: { read: '读取文件', write: '写入文件', exec: '运行命令', mcp: 'MCP 工具', settings: '设置工具' },
    patternExamples: { read: '~/notes/**', write: '~/projects/app/**', exec: 'npm test*', mcp: 'github/*', settings: '工具名称' },
    revoke: '撤销',
    revokeNamed: '撤销规则 {pattern}',
    revoked: '规则已撤销。',
    addRule: '添加规则',
    added: '规则已添加。'
  }
} satisfies typeof en
