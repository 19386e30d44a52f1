// 消息渲染、工具结果、导出 / 备份与历史搜索
export default {
  dataBackup: {
    title: '备份与恢复',
    includeSecrets: '包含 API 密钥等机密信息',
    secretsWarning:
      '任何拿到该归档的人都能使用这些密钥，请妥善保管。（桌面版密钥按本机加密，换机后可能无法使用。）',
    backUp: '备份全部数据',
    saved: '备份已保存到 {path}',
    restoreLabel: '从备份归档恢复（本机上的路径）',
    restore: '恢复…',
    confirm: '恢复会用备份中的内容替换全部对话、设置和技能，且无法撤销。是否继续？',
    replace: '替换我的数据',
    cancel: '取消',
    restartToFinish: '备份已就绪：重启应用以完成恢复。',
    restarting: '备份已就绪：应用正在重启以完成恢复。'
  },
  chatExport: {
    menu: '导出…',
    format: { markdown: 'Markdown（.md）', html: '网页（.html）', json: 'JSON，可再导入（.json）' },
    importTitle: '导入对话',
    importHint: '以 JSON 导出的对话会作为新对话导入，消息保持不变。',
    importButton: '选择 JSON 导出文件…',
    importNotes: '对话已导入；部分附件只保留了名称：',
    openImported: '打开导入的对话'
  },
  toolResult: {
    image: '工具返回的图片',
    enlarge: '查看原图',
    bytes: '{n} 字节',
    showText: '显示文本',
    structured: '结构化结果',
    unsupported: '无法显示的 {type} 内容',
    openFailed: '无法打开链接'
  },
  rich: {
    preview: '预览'
  }
}
