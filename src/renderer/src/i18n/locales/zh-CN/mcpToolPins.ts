export default {
  mcpToolPins: {
    title: '自你允许此服务器以来有变化',
    summary: '1 个工具在你审阅前保持关闭 | {n} 个工具在你审阅前保持关闭',
    kinds: { changed: '已更改', new: '新增' },
    hints: {
      changed: '模型将看到这个新定义，而不是你允许时的定义。',
      new: '你允许此服务器时，它并未提供这个工具。'
    },
    fields: {
      title: '标题',
      description: '描述',
      inputSchema: '输入结构',
      outputSchema: '输出结构',
      annotations: '注解'
    },
    accept: '接受',
    acceptNamed: '接受 {name} 的新定义',
    keepOff: '保持关闭',
    keepOffNamed: '保持 {name} 关闭',
    keptOff: '保持关闭：1 个工具 | 保持关闭：{n} 个工具',
    heldHint: '在你于服务器卡片上审阅变化之前，模型无法使用此工具。'
  }
}
