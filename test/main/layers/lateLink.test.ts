import { describe, expect, it } from 'vitest'
import { isAppError } from '@shared/errors'
import { LateLink } from '../../../src/main/presenter/wiring/lateLink'

describe('a late link between presenters', () => {
  it('says which presenter was used before it was built, and reaches it once connected', () => {
    const chat = new LateLink<{ isRunning(id: string): boolean }>('The chat loop')
    let early: unknown
    try {
      chat.get()
    } catch (error) {
      early = error
    }
    expect(isAppError(early) && early.code === 'internal').toBe(true)
    expect((early as Error).message).toBe('The chat loop was used before it was built')
    chat.connect({ isRunning: (id) => id === 's1' })
    expect(chat.get().isRunning('s1')).toBe(true)
  })

  it('refuses a second target', () => {
    const link = new LateLink<object>('The tool presenter')
    link.connect({})
    expect(() => link.connect({})).toThrow('The tool presenter is already connected')
  })
})
