import { createApp, watch } from 'vue'
import { createPinia } from 'pinia'
import App from './App.vue'
import { createAppRouter } from './router'
import { createAppI18n } from './i18n'
import { useSettingsStore } from './stores/settings'
import { useBridge } from './api/bridge'
import './style.css'

async function start(): Promise<void> {
  useBridge() // reads and stores the host token from the URL before the router rewrites the hash
  if (window.location.hash.includes('token='))
    window.history.replaceState(null, '', window.location.pathname + '#/')

  const app = createApp(App)
  const pinia = createPinia()
  const i18n = createAppI18n()
  app.use(pinia).use(i18n).use(createAppRouter())

  const settings = useSettingsStore(pinia)
  await settings.load()
  watch(
    () => settings.settings?.language,
    (language) => {
      if (!language) return
      i18n.global.locale.value = language
      document.documentElement.lang = language
    },
    { immediate: true }
  )
  watch(
    () => settings.effectiveTheme,
    (theme) => document.documentElement.classList.toggle('dark', theme === 'dark'),
    { immediate: true }
  )
  app.mount('#app')
}

void start()
