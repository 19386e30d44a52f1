import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { acpAddAgent } from '@shared/contracts/routes/acp.routes'
import { fakeAgentProgram } from '../fixtures/acp/build'
import { script } from '../fixtures/acp/script'
import { artifactPath, launchBrowser } from './helpers/browser'
import { openChat, sendFromInput, startChatHost, textReply, type ChatHost } from './helpers/chatHost'

let chat: ChatHost
let browser: Browser
let agentDir: string

beforeAll(async () => {
  chat = await startChatHost(() => textReply('The LLM answered.'))
  agentDir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-agent-'))
  await chat.bridge.call(acpAddAgent, {
    agent: {
      id: 'fake',
      name: 'Fake agent',
      command: process.execPath,
      args: [fakeAgentProgram()],
      env: { FAKE_ACP_RECORD: join(agentDir, 'record.jsonl'), FAKE_ACP_STATE: agentDir }
    }
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await chat?.stop()
  rmSync(agentDir, { recursive: true, force: true })
})

describe('an ACP agent as the chat’s model, in Chromium through the headless host', () => {
  it('picks the fake agent, chats, approves its write, and shows the plan and the diff', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    const picker = page.getByTestId('model-picker')
    await picker
      .locator('optgroup[label="Agents"] option', { hasText: 'Fake agent' })
      .waitFor({ state: 'attached' })
    await picker.selectOption({ label: 'Fake agent' })

    const target = join(chat.workspace, 'hello.txt')
    await sendFromInput(
      page,
      script(
        {
          plan: [
            { content: 'Write hello.txt', priority: 'high', status: 'in_progress' },
            { content: 'Report back', priority: 'medium', status: 'pending' }
          ]
        },
        {
          tool: {
            id: 'w-1',
            title: 'Write hello.txt',
            kind: 'edit',
            locations: [{ path: target }],
            content: [{ type: 'diff', path: target, oldText: null, newText: 'hello from the agent\n' }]
          }
        },
        { permission: { toolCallId: 'w-1', title: 'Write hello.txt' } },
        { write: { path: target, content: 'hello from the agent\n' } },
        { toolUpdate: { id: 'w-1', status: 'completed' } },
        {
          plan: [
            { content: 'Write hello.txt', priority: 'high', status: 'completed' },
            { content: 'Report back', priority: 'medium', status: 'in_progress' }
          ]
        },
        { text: ' All done.' }
      )
    )
    await page.waitForURL(/#\/chat\//)
    // The agent waits for us: nothing is written before the answer.
    const allow = page.getByTestId('permission-allow-once')
    await allow.waitFor({ timeout: 20_000 })
    expect(existsSync(target)).toBe(false)
    await page.screenshot({ path: artifactPath('acp-permission.png') })
    await allow.click()

    const answer = page.getByTestId('assistant-message').last()
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 20_000 }).toBe('sent')
    expect(await answer.textContent()).toContain('permission:selected:yes-once')
    expect(await answer.textContent()).toContain('All done.')
    expect(readFileSync(target, 'utf8')).toBe('hello from the agent\n')
    const diff = answer.getByTestId('acp-tool-diff')
    await expect.poll(() => diff.textContent()).toContain('+hello from the agent')
    const plan = answer.getByTestId('plan-block')
    expect(await plan.locator('[data-status="completed"]').count()).toBe(1)
    expect(await plan.textContent()).toContain('Report back')
    // The composer shows the agent's modes once its session exists.
    await page.getByTestId('acp-mode').waitFor()
    await page.screenshot({ path: artifactPath('acp-chat.png'), fullPage: true })
    expect(errors).toEqual([])
    await page.close()
  })

  it('Settings › Agents lists the agent running, with its protocol log', async () => {
    const { page, errors } = await openChat(browser, chat.host)
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('settings-nav-agents').click()
    const card = page.getByTestId('agent-card-fake')
    await card.waitFor()
    await expect.poll(() => page.getByTestId('agent-processes-fake').getAttribute('data-count')).toBe('1')
    await page.getByTestId('agent-log-fake').click()
    await page.locator('[data-testid="agent-log-entries"] [data-method="session/prompt"]').first().waitFor()
    await page.screenshot({ path: artifactPath('acp-settings-log.png') })
    expect(errors).toEqual([])
    await page.close()
  })
})
