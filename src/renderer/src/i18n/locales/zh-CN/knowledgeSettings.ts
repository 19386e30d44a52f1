// 设置 › 知识库（#31）：随设置页加载。
export default {
  settingsKnowledge: {
    nav: '知识库',
    title: '知识库',
    subtitle:
      '模型可在关联的对话中检索的文件和文件夹。它们在本机读取、切分成片段，并用你某个服务商的嵌入模型生成向量。',
    new: '新建知识库',
    createTitle: '新建知识库',
    name: '名称',
    create: '创建并建立索引',
    cancel: '取消',
    pathLabel: '文件和文件夹',
    pathPlaceholder: '/home/me/notes 或 /home/me/report.pdf',
    pathHint:
      '支持 PDF、Word、Excel、Markdown、HTML、文本和代码。文件夹连同子文件夹一起读取（不含 .git、node_modules 和被忽略的文件），其中文件变化时会重新索引。',
    addPath: '添加',
    addFolder: '添加文件夹…',
    addFiles: '添加文件…',
    pathRefused: '无法添加 {path}：{reason}',
    sourceKind: { file: '文件', folder: '文件夹' },
    removePicked: '移除 {path}',
    noEmbeddingProviders:
      '你的服务商中还没有可用于嵌入的。请在 设置 › 服务商 中添加 OpenAI、Gemini、Mistral、Ollama 或 OpenAI 兼容服务商。',
    embeddingProvider: '嵌入服务商',
    embeddingModel: '嵌入模型',
    embeddingFixed:
      '知识库会固定使用它的嵌入模型。之后更换意味着所有片段重新嵌入，且只在你明确选择时才会发生。',
    empty: '还没有知识库。可以从一个文档文件夹创建。',
    status: {
      idle: '就绪',
      queued: '等待中',
      indexing: '索引中',
      cancelled: '已停止',
      error: '失败'
    },
    files: '文件',
    chunks: '片段',
    size: '大小',
    lastIndexed: '上次索引',
    neverIndexed: '尚未索引',
    modelLine: '嵌入：{provider} / {model}',
    dimensions: '{n} 维',
    progressLabel: '正在索引 {name}',
    fileErrors: '{n} 个文件被跳过或失败 | {n} 个文件被跳过或失败',
    sources: '{n} 个来源 | {n} 个来源',
    sourceMissing: '已丢失',
    removeSource: '从此知识库移除 {path}',
    addSources: '添加文件或文件夹',
    cancelRun: '停止索引',
    reindex: '重新索引',
    reembed: '更换嵌入模型…',
    remove: '删除',
    removeTitle: '删除“{name}”？',
    removeBody: '它的索引会被删除，对话也不再检索它。你的文件保持原样。',
    reembedTitle: '更换“{name}”的嵌入模型',
    reembedWarning:
      '所有片段（{chunks} 个）都会用新模型重新嵌入，替换 {model}。完成之前，此知识库能检索到的内容会变少。两个模型的向量绝不会混用。',
    reembedConfirm: '用此模型重新嵌入',
    reembedSame: '这正是该知识库当前使用的模型。',
    progress: {
      scanning: '正在查找文件…',
      reading: '读取中',
      embedding: '嵌入中',
      done: '完成',
      cancelled: '已停止',
      failed: '失败',
      files: '文件 {done} / {total}',
      chunks: '片段 {done} / {total}'
    },
    tryTitle: '试试搜索',
    tryBase: '知识库',
    tryAllBases: '全部知识库',
    tryQuery: '搜索内容',
    trySearch: '搜索',
    tryFound: '没有找到（{ms} 毫秒）。 | 1 条结果（{ms} 毫秒）。 | {n} 条结果（{ms} 毫秒）。',
    tryFullTextOnly: '无法连接嵌入模型，以下结果仅来自全文检索（{reason}）。'
  }
}
