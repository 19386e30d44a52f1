import { createI18n } from 'vue-i18n'
import type { Language } from '@shared/types/settings'
import enUSFirstLoad from './locales/en-US/index.core'
import type { MessageSchema } from './index'

/**
 * The window's i18n: English is in the first load (it is also the fallback), all but the
 * settings pages' strings, which come when a settings page opens; other languages are loaded
 * whole when chosen, so a user who never switches never downloads them.
 */
const loaders: Record<Exclude<Language, 'en-US'>, () => Promise<{ default: MessageSchema }>> = {
  'zh-CN': () => import('./locales/zh-CN')
}

export function createWindowI18n() {
  return createI18n<[MessageSchema], Language, false>({
    legacy: false,
    locale: 'en-US',
    fallbackLocale: 'en-US',
    messages: { 'en-US': enUSFirstLoad } as Record<Language, MessageSchema>
  })
}

export type WindowI18n = ReturnType<typeof createWindowI18n>

/** Loads a language's messages if needed, then switches to it. */
export async function switchLanguage(i18n: WindowI18n, language: Language): Promise<void> {
  if (language !== 'en-US' && !i18n.global.availableLocales.includes(language))
    i18n.global.setLocaleMessage(language, (await loaders[language]()).default)
  i18n.global.locale.value = language
  document.documentElement.lang = language
}

let settingsMessages: Promise<void> | undefined

/** Adds the settings pages' English strings (once; a failed load is tried again next time). */
export function loadSettingsMessages(i18n: WindowI18n): Promise<void> {
  settingsMessages ??= import('./locales/en-US/index.settings').then(
    (m) => i18n.global.mergeLocaleMessage('en-US', m.default as never),
    (error: unknown) => {
      settingsMessages = undefined
      throw error
    }
  )
  return settingsMessages
}
