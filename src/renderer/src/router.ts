import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router'

export const routes: RouteRecordRaw[] = [
  { path: '/', name: 'chat', component: () => import('./pages/ChatPage.vue') },
  { path: '/chat/:sessionId', name: 'chat-session', component: () => import('./pages/ChatPage.vue') },
  {
    path: '/settings',
    component: () => import('./pages/settings/SettingsLayout.vue'),
    children: [
      { path: '', redirect: { name: 'settings-general' } },
      {
        path: 'general',
        name: 'settings-general',
        component: () => import('./pages/settings/GeneralSettings.vue')
      },
      {
        path: 'providers',
        name: 'settings-providers',
        component: () => import('./pages/settings/ProvidersSettings.vue')
      },
      { path: 'mcp', name: 'settings-mcp', component: () => import('./pages/settings/McpSettings.vue') },
      {
        path: 'permissions',
        name: 'settings-permissions',
        component: () => import('./pages/settings/PermissionsSettings.vue')
      },
      {
        path: 'agents',
        name: 'settings-agents',
        component: () => import('./pages/settings/AgentsSettings.vue')
      },
      {
        path: 'agent-tools',
        name: 'settings-agent-tools',
        component: () => import('./pages/settings/AgentToolsSettings.vue')
      },
      {
        path: 'skills',
        name: 'settings-skills',
        component: () => import('./pages/settings/SkillsSettings.vue')
      },
      {
        path: 'memory',
        name: 'settings-memory',
        component: () => import('./pages/settings/MemorySettings.vue')
      },
      {
        path: 'network',
        name: 'settings-network',
        component: () => import('./pages/settings/NetworkSettings.vue')
      },
      {
        path: 'web-search',
        name: 'settings-web-search',
        component: () => import('./pages/settings/WebSearchSettings.vue')
      },
      {
        path: 'knowledge',
        name: 'settings-knowledge',
        component: () => import('./pages/settings/KnowledgeSettings.vue')
      },
      {
        path: 'image',
        name: 'settings-image',
        component: () => import('./pages/settings/ImageSettings.vue')
      },
      {
        path: 'prompts',
        name: 'settings-prompts',
        component: () => import('./pages/settings/PromptsSettings.vue')
      },
      {
        path: 'assistants',
        name: 'settings-assistants',
        component: () => import('./pages/settings/AssistantsSettings.vue')
      },
      { path: 'about', name: 'settings-about', component: () => import('./pages/settings/AboutPage.vue') }
    ]
  },
  { path: '/:pathMatch(.*)*', redirect: '/' }
]

// Hash history: works from file:// in Electron and keeps `#token=` handling in one place.
export function createAppRouter() {
  return createRouter({ history: createWebHashHistory(), routes })
}
