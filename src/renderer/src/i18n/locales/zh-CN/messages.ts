// 消息渲染、工具结果、导出 / 备份与历史搜索
export default {
  chatExport: {
    menu: '导出…',
    format: { markdown: 'Markdown（.md）', html: '网页（.html）', json: 'JSON，可再导入（.json）' },
    importTitle: '导入对话',
    importHint: '以 JSON 导出的对话会作为新对话导入，消息保持不变。',
    importButton: '选择 JSON 导出文件…'
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
