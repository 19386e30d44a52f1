// 设置 › 记忆 (#19)。
export default {
  settingsMemory: {
    nav: '记忆',
    title: '记忆',
    subtitle: '助手跨对话记住的内容，按其中的词语回忆。',
    enabled: '使用记忆',
    search: '搜索记忆',
    searchButton: '搜索',
    empty: '还没有记住任何内容。',
    noHits: '没有匹配的记忆。',
    edit: '编辑',
    save: '保存',
    delete: '删除',
    saved: '记忆已保存。',
    kinds: { semantic: '事实', episodic: '事件' }
  }
}
