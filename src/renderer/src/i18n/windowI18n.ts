import { createI18n } from 'vue-i18n'
import type { Language } from '@shared/types/settings'
import enUS from './locales/en-US'
import type { MessageSchema } from './index'

/**
 * The window's i18n: English is in the first load (it is also the fallback); other languages
 * are loaded when chosen, so a user who never switches never downloads them.
 */
const loaders: Record<Exclude<Language, 'en-US'>, () => Promise<{ default: MessageSchema }>> = {
  'zh-CN': () => import('./locales/zh-CN')
}

export function createWindowI18n() {
  return createI18n<[MessageSchema], Language, false>({
    legacy: false,
    locale: 'en-US',
    fallbackLocale: 'en-US',
    messages: { 'en-US': enUS } as Record<Language, MessageSchema>
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
