import { describe, expect, it } from 'vitest'
import { toSdkProviderOptions } from '../../../src/main/presenter/llmProviderPresenter/messageMapper'

describe('provider options handed to the SDK', () => {
  it('keeps everything JSON holds, nested, and leaves out what JSON would', () => {
    const signature = { signature: 'sig-1', blocks: [{ n: 1 }, { n: Number.NaN }], redacted: undefined }
    expect(
      toSdkProviderOptions({ anthropic: signature, google: { thoughtSignature: 'g', skip: () => 1 } })
    ).toEqual({
      anthropic: { signature: 'sig-1', blocks: [{ n: 1 }, { n: null }] },
      google: { thoughtSignature: 'g' }
    })
    expect(toSdkProviderOptions(undefined)).toBeUndefined()
  })
})
