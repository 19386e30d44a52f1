import { describe, expect, it } from 'vitest'
import { messages } from '@renderer/i18n'

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix]
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key))
}

describe('translations', () => {
  it('zh-CN has every en-US message and no empty one', () => {
    const english = keys(messages['en-US']).sort()
    expect(keys(messages['zh-CN']).sort()).toEqual(english)
    for (const locale of Object.values(messages)) {
      for (const key of keys(locale)) {
        const text = key
          .split('.')
          .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], locale)
        expect(String(text).trim(), key).not.toBe('')
      }
    }
  })
})
