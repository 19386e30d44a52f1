// 工具调用上的内联审批卡片 (#19)。
export default {
  learnedRule: {
    title: '可以保存的规则',
    approvals: '你已允许此类请求 {n} 次。',
    question: '始终允许{kind}',
    kinds: {
      exec: '这些命令',
      read: '读取',
      write: '写入',
      network: '读取此网站的页面',
      mcp: '此 MCP 工具',
      settings: '此设置'
    },
    replay:
      '在所有对话最近的 {considered} 个请求中，它会允许 {allowed} 个。 | 在所有对话最近的 {considered} 个请求中，它会允许 {allowed} 个，其中 {denied} 个是你拒绝过的： | 在所有对话最近的 {considered} 个请求中，它会允许 {allowed} 个，其中 {denied} 个是你拒绝过的：',
    untitled: '未命名对话',
    save: '始终允许',
    notNow: '暂不',
    saved: '规则已保存：此类请求将不再询问（在“设置 › 权限”中可查看）。'
  },
  approval: {
    dockLabel: '等待你回答的请求',
    why: '原因',
    waitingInChat: '此对话中有一个请求等待你回答：查看 | 此对话中有 {n} 个请求等待你回答：查看',
    keys: '按键：Y 允许一次 · S 本对话 · N 拒绝',
    keysAlways: '按键：Y 允许一次 · S 本对话 · A 始终 · N 拒绝',
    questionKeys: '按键：1–9 选择 · Esc 跳过',
    allowServerAlways: '始终允许 {server} 的所有工具',
    allowServerSession: '在此对话中允许 {server} 的所有工具',
    argsForm: '表单',
    argsRaw: '原始 JSON',
    noArgs: '没有参数。',
    previewAs: '变更显示方式',
    showDiff: '差异',
    showContent: '新内容',
    previewFailed: '无法读取当前文件：{error}',
    current: {
      missing: '新文件：不会替换任何内容。',
      hidden: '当前文件不显示：它位于助手不可读取的位置。',
      too_large: '当前文件过大，无法比较（{size}）；显示新内容。',
      binary: '当前文件是二进制文件（{size}）；显示新内容。',
      unreadable: '无法读取当前文件；显示新内容。'
    },
    notifyTitle: '有对话需要你回答',
    notifyBody: '“{title}”正在等待你的批准。'
  }
}
