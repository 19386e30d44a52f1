import { createI18n } from 'vue-i18n'
import type { Language } from '@shared/types/settings'
import enUS from './locales/en-US'
import zhCN from './locales/zh-CN'

export type MessageSchema = typeof enUS

export const messages: Record<Language, MessageSchema> = { 'en-US': enUS, 'zh-CN': zhCN }

export function createAppI18n(locale: Language = 'en-US') {
  return createI18n<[MessageSchema], Language, false>({
    legacy: false,
    locale,
    fallbackLocale: 'en-US',
    messages
  })
}

export type AppI18n = ReturnType<typeof createAppI18n>
