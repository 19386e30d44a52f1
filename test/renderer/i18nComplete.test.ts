import { describe, expect, it } from 'vitest'
import { messages } from '@renderer/i18n'

/** Every message of a locale as `key -> text`. */
function flatten(value: unknown, prefix = ''): Map<string, string> {
  if (typeof value !== 'object' || value === null) return new Map([[prefix, String(value)]])
  return new Map(
    Object.entries(value).flatMap(([key, child]) => [...flatten(child, prefix ? `${prefix}.${key}` : key)])
  )
}

/**
 * Messages that stay the same in Chinese: product and protocol names, paths and patterns the
 * user types as they are. Anything else equal to its English text is an untranslated message.
 */
const SAME_IN_ZH = new Set([
  'app.name',
  'languages.en-US',
  // A language's own name is the same in every locale.
  'languages.zh-CN',
  'settings.general.workspacePlaceholder',
  'settings.about.node',
  'settings.about.electron',
  'settings.about.chrome',
  'settingsMcp.oauth.label',
  'settingsMcp.form.url',
  'settingsPermissions.patternExamples.read',
  'settingsPermissions.patternExamples.write',
  'settingsPermissions.patternExamples.exec',
  'settingsPermissions.patternExamples.mcp'
])

/** Names that need no Chinese (file kinds, terms), whether or not equal to English. */
const NAMES = new Set([
  'composer.kinds.pdf',
  'composer.kinds.docx',
  'composer.kinds.spreadsheet',
  'composer.kinds.csv',
  'composer.params.topP',
  'chatExport.format.markdown'
])

/** Whole groups that are product names: provider kinds (OpenAI API, Groq, …). */
const SAME_PREFIXES = ['settingsProviders.kinds.']
const allowedSame = (key: string) =>
  SAME_IN_ZH.has(key) || NAMES.has(key) || SAME_PREFIXES.some((p) => key.startsWith(p))

const english = flatten(messages['en-US'])
const chinese = flatten(messages['zh-CN'])
const CJK = /[\u3400-\u9fff]/
/** Latin words but no Chinese: English text (punctuation-only messages are fine). */
const lacksChinese = (text: string) => !CJK.test(text) && /[A-Za-z]/.test(text.replace(/\{[^}]*\}/g, ''))

describe('the Chinese translation is complete', () => {
  it('has every English message', () => {
    expect([...english.keys()].filter((key) => !chinese.has(key))).toEqual([])
  })

  it('translates every message (none equal to the English text, each with Chinese in it) except the allow-list', () => {
    const untranslated = [...english].filter(
      ([key, text]) =>
        !allowedSame(key) && (chinese.get(key) === text || lacksChinese(chinese.get(key) ?? ''))
    )
    expect(untranslated.map(([key]) => key)).toEqual([])
  })

  it('keeps its allow-list honest: each entry is still equal to English', () => {
    expect([...SAME_IN_ZH].filter((key) => chinese.get(key) !== english.get(key))).toEqual([])
  })

  it('does not leave the English word "tokens" in Chinese text', () => {
    expect([...chinese].filter(([, text]) => /\btokens\b/i.test(text)).map(([key]) => key)).toEqual([])
  })
})

describe('one name per permission mode', () => {
  it.each(['en-US', 'zh-CN'] as const)(
    'the chat and Settings › Permissions name each mode alike (%s)',
    (locale) => {
      const texts = flatten(messages[locale])
      for (const mode of ['default', 'accept_edits', 'sandboxed', 'full_access'])
        expect(texts.get(`chat.permissionMode.${mode}`), mode).toBe(
          texts.get(`settingsPermissions.modes.${mode}.label`)
        )
    }
  )
})
