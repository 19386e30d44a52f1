// 消息渲染、工具结果、导出 / 备份与历史搜索
export default {
  rich: {
    preview: '预览'
  }
}
