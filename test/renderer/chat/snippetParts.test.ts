import { describe, expect, it } from 'vitest'
import { snippetParts } from '@renderer/components/chat/sidebar/snippetParts'

describe('search snippet parts', () => {
  it('splits a snippet into plain and marked runs in order', () => {
    expect(
      snippetParts('a cat and a Cat', [
        [2, 5],
        [12, 15]
      ])
    ).toEqual([
      { text: 'a ', mark: false },
      { text: 'cat', mark: true },
      { text: ' and a ', mark: false },
      { text: 'Cat', mark: true }
    ])
  })

  it('ignores ranges that overlap, are empty or fall outside the text', () => {
    expect(
      snippetParts('abcdef', [
        [3, 5],
        [1, 4],
        [2, 2],
        [4, 99],
        [-1, 1]
      ])
    ).toEqual([
      { text: 'a', mark: false },
      { text: 'bcd', mark: true },
      { text: 'ef', mark: false }
    ])
  })

  it('keeps markup as text for the template to escape', () => {
    const parts = snippetParts('<b>x</b>', [[3, 4]])
    expect(parts.map((p) => p.text).join('')).toBe('<b>x</b>')
  })
})
