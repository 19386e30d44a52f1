/** 聊天窗口的日常工具：在聊天中查找、确认。 */
export default {
  turnRevert: {
    confirm: '将本轮更改的 {n} 个文件恢复为本轮之前的样子？',
    revert: '还原'
  },
  chatFind: {
    label: '在聊天中查找',
    placeholder: '在此聊天中查找',
    count: '第 {n} 个，共 {m} 个',
    countCapped: '第 {n} 个，共 {m}+ 个',
    none: '无结果',
    searching: '正在查找…',
    previous: '上一个匹配（Shift+Enter）',
    next: '下一个匹配（Enter）',
    close: '关闭（Esc）'
  }
}
