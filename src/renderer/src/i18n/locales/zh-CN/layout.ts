// 窗口布局 (#19)。
export default {
  layout: { collapseSidebar: '收起侧边栏', expandSidebar: '展开侧边栏' }
}
