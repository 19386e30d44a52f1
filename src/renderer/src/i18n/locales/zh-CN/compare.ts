export default {
  compare: {
    action: '对比',
    pickTitle: '对比模型',
    pickHint: '选择 {min} 到 {max} 个模型。每个模型在聊天及其文件夹的独立副本上运行该提示。',
    typeFirst: '请先在输入框中输入提示。',
    send: '发送给 {n} 个模型',
    title: '对比',
    models: '{n} 个模型',
    discardAll: '全部丢弃',
    stop: '停止',
    keep: '保留这个',
    waiting: '正在等待模型…',
    toolCalls: '工具调用',
    asks: '{model} 请求',
    allowOnce: '允许一次',
    deny: '拒绝',
    openRun: '在该运行的聊天中回答',
    copyNote: '临时副本。',
    files: '{n} 个文件有改动',
    noFiles: '没有文件改动。',
    diffCut: '差异在此截断；保留该运行会应用全部改动。',
    tokens: '令牌 输入 {input} / 输出 {output}',
    cost: '费用 {cost}',
    time: '用时 {seconds} 秒',
    fileStatus: { added: '新增', modified: '修改', deleted: '删除' },
    status: {
      preparing: '准备中',
      running: '运行中',
      waiting: '等待你的操作',
      completed: '完成',
      error: '失败',
      cancelled: '已停止'
    }
  }
}
