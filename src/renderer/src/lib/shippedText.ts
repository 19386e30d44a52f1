import { useI18n } from 'vue-i18n'

/**
 * Text the app ships in English inside data (a built-in MCP server's description, a registry
 * agent's), shown in the user's language. `key` names its translations; the shipped English is
 * translated only while it is unchanged, so a description the user edited is shown as written.
 */
export function useShippedText(): (key: string, shipped: string | undefined) => string {
  const { t, te } = useI18n()
  return (key, shipped) => {
    if (!shipped || !te(key, 'en-US')) return shipped ?? ''
    return t(key, {}, { locale: 'en-US' }) === shipped ? t(key) : shipped
  }
}
