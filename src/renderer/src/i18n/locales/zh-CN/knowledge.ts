// 知识库（#31）：设置 › 知识库、对话使用的知识库、引用与来源查看器。
export default {
  knowledge: {
    location: {
      page: '第 {page} 页',
      line: '第 {line} 行',
      lines: '第 {start}–{end} 行',
      sheet: '{sheet}，第 {start}–{end} 行'
    },
    viewer: {
      copyPath: '复制路径',
      copied: '已复制',
      previousPage: '上一页',
      nextPage: '下一页',
      pageOf: '第 {page} 页，共 {count} 页',
      changed: '该文件在建立索引后已更改：文本可能与引用时不同。',
      textLabel: '被引用文件的文本'
    },
    sources: { title: '知识库来源' },
    chips: {
      label: '此对话检索的知识库',
      title: '此对话会检索 {name}',
      detach: '此对话不再检索 {name}'
    },
    tools: {
      title: '知识库',
      perChat: '知识库关联到具体对话：发送第一条消息后，再在这里选择。',
      none: '还没有知识库：请在 设置 › 知识库 中创建。',
      counts: '{files} 个文件 · {chunks} 个片段'
    }
  }
}
