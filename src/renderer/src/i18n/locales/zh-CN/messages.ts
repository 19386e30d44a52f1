// 消息渲染、工具结果、导出 / 备份与历史搜索
export default {
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
