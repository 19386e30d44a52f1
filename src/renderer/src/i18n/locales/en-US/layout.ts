// The window's layout (#19).
export default {
  layout: { collapseSidebar: 'Collapse the sidebar', expandSidebar: 'Expand the sidebar' }
}
