import { afterEach, describe, expect, it, vi } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import { ActionBlockData } from '@shared/types/chat'
import type { CommandPreview } from '@shared/types/commandPreview'
import type { PendingInteraction } from '@shared/types/session'
import PermissionCard from '@renderer/components/chat/approvals/PermissionCard.vue'
import { createAppI18n } from '@renderer/i18n'
import { useApprovalsStore } from '@renderer/stores/approvals'

let unmount: (() => void) | undefined
afterEach(() => {
  unmount?.()
  unmount = undefined
})

const limits = { timeMs: 30_000, maxBytes: 200 * 1024 * 1024, maxFiles: 20_000, outputChars: 16_000 }

function commandInteraction(tool = 'exec'): PendingInteraction {
  const data = ActionBlockData.parse({
    actionType: 'permission',
    interactionId: 'i1',
    toolCallId: 'c1',
    toolName: tool,
    request: {
      type: 'command',
      tool,
      server: 'agent-filesystem',
      sessionId: 's1',
      risk: 'high',
      reason: 'destructive',
      command: 'rm -rf build',
      cwd: '/w'
    }
  })
  return {
    id: 'i1',
    sessionId: 's1',
    messageId: 'm1',
    blockId: 'a1',
    toolCallId: 'c1',
    kind: 'permission',
    status: 'pending',
    request: data,
    response: null,
    createdAt: 1,
    resolvedAt: null
  }
}

/** The card with main's preview answered by `answer` (the preview itself is tested in main with real bwrap). */
function mountCard(answer: Promise<CommandPreview>, tool = 'exec', locale: 'en-US' | 'zh-CN' = 'en-US') {
  setActivePinia(createPinia())
  const approvals = useApprovalsStore()
  const asked = vi.spyOn(approvals, 'previewCommand').mockReturnValue(answer)
  const wrapper = mount(PermissionCard, {
    props: { interaction: commandInteraction(tool), first: false },
    global: { plugins: [createAppI18n(locale)] },
    attachTo: document.body
  })
  unmount = () => wrapper.unmount()
  return { wrapper, asked }
}

/** The card's preview panel loads with the first command card: waits for it, then for its answer. */
async function panelShown(wrapper: ReturnType<typeof mountCard>['wrapper']): Promise<void> {
  await vi.waitFor(() => expect(wrapper.find('[data-testid="command-preview"]').exists()).toBe(true))
  await flushPromises()
}

const done: CommandPreview = {
  status: 'done',
  exitCode: 0,
  timedOut: false,
  durationMs: 420,
  stdout: 'removed build\n',
  stderr: '',
  outputDropped: 0,
  files: [
    {
      path: 'build/out.js',
      change: 'deleted',
      kind: 'text',
      before: 'console.log(1)\n',
      after: null,
      sizeBefore: 15,
      sizeAfter: null
    },
    {
      path: 'build/blob.bin',
      change: 'deleted',
      kind: 'binary',
      before: null,
      after: null,
      sizeBefore: 2048,
      sizeAfter: null
    },
    {
      path: 'build',
      change: 'deleted',
      kind: 'folder',
      before: null,
      after: null,
      sizeBefore: null,
      sizeAfter: null
    }
  ],
  filesOmitted: 0,
  refused: [],
  limits,
  onApprove: 'apply'
}

describe('a command card with its preview', () => {
  it('shows at once with "previewing…", then fills in the files, output, exit code, limits and what approving does', async () => {
    let resolve!: (p: CommandPreview) => void
    const { wrapper, asked } = mountCard(new Promise((r) => (resolve = r)))
    await panelShown(wrapper)
    expect(asked).toHaveBeenCalledOnce()
    expect(wrapper.get('[data-testid="permission-command"]').text()).toContain('rm -rf build')
    expect(wrapper.get('[data-testid="command-preview"]').attributes('data-status')).toBe('previewing')
    expect(wrapper.get('[data-testid="command-preview-running"]').text()).toContain(
      'Previewing in the sandbox'
    )
    resolve(done)
    await flushPromises()
    const files = wrapper.findAll('[data-testid="command-preview-file"]').map((f) => f.text())
    expect(files[0]).toContain('deleted')
    expect(files[0]).toContain('build/out.js')
    expect(files[1]).toContain('binary, 2 KB → —')
    expect(files[2]).toContain('folder')
    expect(wrapper.get('[data-testid="command-preview-stdout"]').text()).toBe('removed build')
    expect(wrapper.get('[data-testid="command-preview-exit"]').text()).toContain('Exit code 0')
    expect(wrapper.get('[data-testid="command-preview-limits"]').text()).toBe(
      'Limits: 30 s, 200 MB, 20,000 files, 16,000 characters of output per stream'
    )
    expect(wrapper.get('[data-testid="command-preview-on-approve"]').attributes('data-on-approve')).toBe(
      'apply'
    )
    await wrapper.get('[data-testid="command-preview-diff-toggle"]').trigger('click')
    await vi.waitFor(() => wrapper.get('[data-testid="tool-diff"]'))
    expect(wrapper.get('[data-testid="tool-diff"]').text()).toContain('console.log(1)')
  })

  it('names what the preview was refused and says approving runs the command for real', async () => {
    const { wrapper } = mountCard(
      Promise.resolve({
        ...done,
        files: [],
        refused: [
          {
            kind: 'network',
            detail: "curl: (7) Failed to connect to 127.0.0.1 port 8080: Couldn't connect to server"
          },
          { kind: 'outside_write', detail: '/home/u/.bashrc' }
        ],
        onApprove: 'run',
        runReason: 'refused'
      })
    )
    await panelShown(wrapper)
    const refused = wrapper.get('[data-testid="command-preview-refused"]').text()
    expect(refused).toContain('network')
    expect(refused).toContain('Failed to connect')
    expect(refused).toContain('write outside the workspace:')
    expect(refused).toContain('/home/u/.bashrc')
    expect(wrapper.get('[data-testid="command-preview-on-approve"]').text()).toBe(
      'Approving runs the command for real: the preview could not do everything it tried.'
    )
    expect(wrapper.find('[data-testid="command-preview-no-changes"]').exists()).toBe(true)
  })

  it('says why there is no preview, in Chinese too', async () => {
    const { wrapper } = mountCard(
      Promise.resolve({ status: 'unavailable', reason: 'workspace_too_large', limits }),
      'exec',
      'zh-CN'
    )
    await panelShown(wrapper)
    expect(wrapper.get('[data-testid="command-preview-unavailable"]').text()).toBe(
      '无预览：工作区超出了预览的大小限制。批准将真正运行该命令。'
    )
  })

  it('asks main for no preview of a command that is not exec (an ACP terminal)', async () => {
    const { wrapper, asked } = mountCard(Promise.resolve(done), 'terminal/create')
    await flushPromises()
    expect(asked).not.toHaveBeenCalled()
    expect(wrapper.find('[data-testid="command-preview"]').exists()).toBe(false)
  })
})
