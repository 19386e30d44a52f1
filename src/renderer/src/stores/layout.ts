import { defineStore } from 'pinia'
import { ref, watch } from 'vue'

const COLLAPSED_KEY = 'deepchat.sidebarCollapsed'
/** Below this window width the sidebar starts collapsed, unless the user chose otherwise. */
const NARROW_WIDTH = 900

function initialCollapsed(): boolean {
  const saved = window.localStorage.getItem(COLLAPSED_KEY)
  if (saved === '1' || saved === '0') return saved === '1'
  return window.innerWidth < NARROW_WIDTH
}

/** The window's layout choices that outlive a page: whether the sidebar is collapsed. */
export const useLayoutStore = defineStore('layout', () => {
  const sidebarCollapsed = ref(initialCollapsed())
  watch(sidebarCollapsed, (collapsed) => window.localStorage.setItem(COLLAPSED_KEY, collapsed ? '1' : '0'))
  const toggleSidebar = () => (sidebarCollapsed.value = !sidebarCollapsed.value)
  return { sidebarCollapsed, toggleSidebar }
})
