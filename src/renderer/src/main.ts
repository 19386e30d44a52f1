import { createApp, watch } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { createAppRouter } from './router'
import { createWindowI18n, loadSettingsMessages, switchLanguage } from './i18n/windowI18n'
import { useSettingsStore } from './stores/settings'
import { useBridge } from './api/bridge'
import './style.css'

async function start(): Promise<void> {
  useBridge() // reads and stores the host token from the URL before the router rewrites the hash
  if (window.location.hash.includes('token='))
    window.history.replaceState(null, '', window.location.pathname + '#/')

  const app = createApp(App)
  const pinia = createPinia()
  const i18n = createWindowI18n()
  const router = createAppRouter()
  // A settings page opens with its strings in place (a failed load still opens it).
  router.beforeEach(async (to) => {
    if (to.path.startsWith('/settings'))
      await loadSettingsMessages(i18n).catch((e: unknown) => console.warn('settings strings', e))
  })
  app.use(pinia).use(i18n).use(router)

  const settings = useSettingsStore(pinia)
  await settings.load()
  const language = settings.settings?.language
  if (language) await switchLanguage(i18n, language).catch((e: unknown) => console.warn('language', e))
  watch(
    () => settings.settings?.language,
    (next) => {
      if (next) switchLanguage(i18n, next).catch((e: unknown) => console.warn('language', e))
    }
  )
  watch(
    () => settings.effectiveTheme,
    (theme) => document.documentElement.classList.toggle('dark', theme === 'dark'),
    { immediate: true }
  )
  app.mount('#app')
}

void start()
