import { describe, expect, it } from 'vitest'
import { mount } from '@vue/test-utils'
import SkippedFiles from '@renderer/components/chat/checkpoints/SkippedFiles.vue'
import { createAppI18n } from '@renderer/i18n'
import type { RevertResult } from '@shared/types/checkpoints'

const result = (files: RevertResult['files']): RevertResult => ({
  sessionId: 's',
  messageId: 'm',
  files,
  revertEntryId: 1
})

describe('files a revert left alone', () => {
  it('names each skipped file with why, in the user language', () => {
    const files: RevertResult['files'] = [
      { path: '/ws/notes.txt', action: 'restored' },
      { path: '/ws/run.sh', action: 'skipped', reason: 'link' },
      { path: '/elsewhere/a.txt', action: 'skipped', reason: 'outside_workspace' }
    ]
    const en = mount(SkippedFiles, {
      props: { result: result(files) },
      global: { plugins: [createAppI18n('en-US')] }
    })
    const text = en.get('[data-testid="revert-skipped"]').text()
    expect(text).toContain('/ws/run.sh (now a link or a hard link')
    expect(text).toContain('/elsewhere/a.txt (outside the workspace)')
    expect(text).not.toContain('notes.txt')
    const zh = mount(SkippedFiles, {
      props: { result: result(files) },
      global: { plugins: [createAppI18n('zh-CN')] }
    })
    expect(zh.get('[data-testid="revert-skipped"]').text()).toContain('/ws/run.sh (现在是链接或硬链接')
  })

  it('shows nothing when every file was put back', () => {
    const wrapper = mount(SkippedFiles, {
      props: { result: result([{ path: '/ws/a', action: 'restored' }]) },
      global: { plugins: [createAppI18n('en-US')] }
    })
    expect(wrapper.find('[data-testid="revert-skipped"]').exists()).toBe(false)
  })
})
