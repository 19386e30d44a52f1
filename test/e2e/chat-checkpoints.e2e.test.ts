import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import type { FakeResponse } from '../fixtures/llm/fakeLlm'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  callsReply,
  type ChatHost,
  lastUserText,
  openChat,
  sendFromInput,
  seriousA11yViolations,
  startChatHost,
  textReply,
  toolCall
} from './helpers/chatHost'
import { openAiBody, type OpenAiRequest } from '../fixtures/llm/openAiRequest'

let chat: ChatHost
let browser: Browser

/** One turn: an edit and a shell command, each changing a file in the workspace. */
function reply(body: OpenAiRequest): FakeResponse {
  if (body.messages.at(-1)?.role === 'tool') return textReply('Files changed.')
  const text = lastUserText(body)
  const at = (name: string) => join(chat.workspace, name)
  if (text === 'first step')
    return callsReply(toolCall('e2', 'edit', { path: at('c.txt'), old_string: 'c1', new_string: 'c2' }))
  if (text === 'second step')
    return callsReply(
      toolCall('e3', 'edit', { path: at('c.txt'), old_string: 'c2', new_string: 'c3' }),
      toolCall('x3', 'exec', { command: 'echo d2 > d.txt' })
    )
  return callsReply(
    toolCall('e1', 'edit', { path: join(chat.workspace, 'a.txt'), old_string: 'a1', new_string: 'a2' }),
    toolCall('x1', 'exec', { command: 'echo b2 > b.txt' })
  )
}

beforeAll(async () => {
  chat = await startChatHost((request) => reply(openAiBody(request.body)))
  // Nothing asks: the turn goes straight through (approvals are another file's subject).
  await chat.bridge.call(configUpdateSettings, { patch: { defaultPermissionMode: 'full_access' } })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
})

describe('checkpoints in the chat', () => {
  it('shows "2 files changed" for an edit and a shell command, and "Revert this turn" puts both back', async () => {
    writeFileSync(join(chat.workspace, 'a.txt'), 'a1\n')
    writeFileSync(join(chat.workspace, 'b.txt'), 'b1\n')
    const { page, errors } = await openChat(browser, chat.host)
    await sendFromInput(page, 'change both files')
    const answer = page.getByTestId('assistant-message').last()
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 15_000 }).toBe('sent')
    expect(readFileSync(join(chat.workspace, 'a.txt'), 'utf8')).toBe('a2\n')
    expect(readFileSync(join(chat.workspace, 'b.txt'), 'utf8')).toBe('b2\n')

    const changes = answer.getByTestId('turn-changes')
    await expect.poll(() => changes.getByTestId('turn-changes-count').textContent()).toBe('2 files changed')
    await changes.getByTestId('turn-changes-count').click()
    expect(await changes.getByTestId('turn-changes-file').count()).toBe(2)
    // The file the shell command changed expands to its diff over the turn.
    const shellFile = changes.getByTestId('turn-changes-file').filter({ hasText: 'b.txt' })
    await shellFile.getByTestId('turn-file-toggle').click()
    const diff = shellFile.getByTestId('turn-file-diff').getByTestId('tool-diff')
    await expect.poll(() => diff.textContent(), { timeout: 10_000 }).toMatch(/-\s*b1[\s\S]*\+\s*b2/)
    expect(await shellFile.getByTestId('turn-file-toggle').getAttribute('aria-expanded')).toBe('true')
    await page.screenshot({ path: artifactPath('checkpoints-turn.png') })
    expect(await seriousA11yViolations(page)).toEqual([])

    await changes.getByTestId('turn-revert').click()
    // Revert overwrites files: it asks first.
    expect(await changes.getByTestId('turn-revert-question').textContent()).toContain('back as')
    expect(readFileSync(join(chat.workspace, 'a.txt'), 'utf8')).toBe('a2\n')
    await changes.getByTestId('turn-revert-confirm').click()
    await expect.poll(() => changes.getByTestId('turn-reverted').textContent()).toContain('2 file')
    expect(readFileSync(join(chat.workspace, 'a.txt'), 'utf8')).toBe('a1\n')
    expect(readFileSync(join(chat.workspace, 'b.txt'), 'utf8')).toBe('b1\n')
    // After a reload the turn still says it was reverted.
    await page.reload()
    await expect
      .poll(() => page.getByTestId('turn-changes').last().getAttribute('data-reverted'), { timeout: 10_000 })
      .toBe('true')
    expect(errors).toEqual([])
    await page.close()
  })

  it('"Restore files to before this" on a user message brings back the state before that turn', async () => {
    writeFileSync(join(chat.workspace, 'c.txt'), 'c1\n')
    writeFileSync(join(chat.workspace, 'd.txt'), 'd1\n')
    const { page, errors } = await openChat(browser, chat.host)
    const answered = async (n: number) =>
      expect
        .poll(() => page.locator('[data-testid="assistant-message"][data-status="sent"]').count(), {
          timeout: 15_000
        })
        .toBe(n)
    await sendFromInput(page, 'first step')
    await answered(1)
    await sendFromInput(page, 'second step')
    await answered(2)
    expect(readFileSync(join(chat.workspace, 'c.txt'), 'utf8')).toBe('c3\n')
    expect(readFileSync(join(chat.workspace, 'd.txt'), 'utf8')).toBe('d2\n')

    const second = page.getByTestId('user-message').nth(1)
    await second.getByTestId('user-restore-before').click()
    await second.getByTestId('user-restore-confirm').click()
    await expect.poll(() => second.getByTestId('user-restore-result').textContent()).toContain('2 file')
    // The first turn's edit stays; the second turn's edit and command are undone.
    expect(readFileSync(join(chat.workspace, 'c.txt'), 'utf8')).toBe('c2\n')
    expect(readFileSync(join(chat.workspace, 'd.txt'), 'utf8')).toBe('d1\n')
    await page.screenshot({ path: artifactPath('checkpoints-restore-before.png') })
    expect(errors).toEqual([])
    await page.close()
  })
})
