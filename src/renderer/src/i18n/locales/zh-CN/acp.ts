export default {
  acpChat: {
    bar: '智能体会话',
    mode: '模式',
    model: '智能体模型',
    commands: '命令',
    commandsHint: '{name} 提供的斜杠命令：选择一个作为消息的开头。',
    notStarted: '{name} 会在第一条消息之后显示它的模式、模型和命令。',
    tool: {
      details: '{name} 做了什么',
      kinds: {
        read: '读取',
        edit: '编辑',
        delete: '删除',
        move: '移动',
        search: '搜索',
        execute: '运行',
        think: '思考',
        fetch: '获取',
        switch_mode: '切换模式',
        other: '工具'
      },
      locations: '文件',
      terminal: '终端',
      sandboxed: '在沙箱中运行',
      onHost: '按批准运行',
      exit: '退出码 {code}',
      truncated: '输出已截断',
      newFile: '新文件'
    }
  },
  modelPicker: { agents: '智能体' }
}
