import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import type { FakeResponse } from '../fixtures/llm/fakeLlm'
import { openAiBody, type OpenAiRequest } from '../fixtures/llm/openAiRequest'
import { NEEDS_BWRAP, withoutBwrap } from '../setup/bwrap'
import { artifactPath, launchBrowser } from './helpers/browser'
import {
  callsReply,
  type ChatHost,
  lastUserText,
  openChat,
  seriousA11yViolations,
  sendFromInput,
  startChatHost,
  textReply,
  toolCall
} from './helpers/chatHost'

let chat: ChatHost
let browser: Browser
let server: Server
let hits = 0

const COMMAND = "rm -rf build && sed -i 's/1.0.0/1.0.1/' version.txt && echo cleaned"

/** The model asks exec to clean the build (or fetch a local page); after the tool answered it repeats the answer. */
function reply(body: OpenAiRequest): FakeResponse {
  const last = body.messages.at(-1)!
  if (last.role === 'tool') return textReply(`Tool answered: ${String(last.content).slice(0, 120)}`)
  if (lastUserText(body) === 'clean the build')
    return callsReply(toolCall('x1', 'exec', { command: COMMAND }))
  if (lastUserText(body) === 'fetch the page') {
    const port = (server.address() as { port: number }).port
    return callsReply(toolCall('x2', 'exec', { command: `curl -sS http://127.0.0.1:${port}/ -o page.html` }))
  }
  return textReply('ok')
}

async function setTheme(theme: 'light' | 'dark', page: Page): Promise<void> {
  await chat.bridge.call(configUpdateSettings, { patch: { theme } })
  await expect
    .poll(() => page.locator('html').getAttribute('class'))
    .toSatisfy((c: string | null) => (theme === 'dark') === Boolean(c?.includes('dark')))
}

beforeAll(async () => {
  server = createServer((_request, response) => {
    hits++
    response.end('the page\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  chat = await startChatHost((request) => reply(openAiBody(request.body)))
  mkdirSync(join(chat.workspace, 'build', 'assets'), { recursive: true })
  writeFileSync(join(chat.workspace, 'build', 'app.js'), 'console.log("built")\n')
  writeFileSync(
    join(chat.workspace, 'build', 'assets', 'logo.png'),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1])
  )
  writeFileSync(join(chat.workspace, 'version.txt'), 'version 1.0.0\n')
  browser = await launchBrowser()
})

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await browser?.close()
  await chat?.stop()
})

// The preview runs in bubblewrap (Linux): without it the card says there is none (tested in the renderer).
describe.skipIf(process.platform !== 'linux' || withoutBwrap)(
  'a command previewed before approval',
  NEEDS_BWRAP,
  () => {
    it('shows on the card what the command would do, leaves the folder alone, and applies exactly that on Allow once', async () => {
      const { page, errors } = await openChat(browser, chat.host)
      await page.setViewportSize({ width: 1280, height: 800 })
      await sendFromInput(page, 'clean the build')
      const card = page.getByTestId('permission-card')
      await card.waitFor({ timeout: 15_000 })
      const preview = card.getByTestId('command-preview')
      await expect.poll(() => preview.getAttribute('data-status'), { timeout: 30_000 }).toBe('done')
      const files = await card
        .getByTestId('command-preview-file')
        .evaluateAll((items) =>
          items.map((li) => `${li.getAttribute('data-change')} ${li.getAttribute('data-path')}`).sort()
        )
      expect(files).toEqual([
        'changed version.txt',
        'deleted build',
        'deleted build/app.js',
        'deleted build/assets',
        'deleted build/assets/logo.png'
      ])
      expect(await card.getByTestId('command-preview-stdout').textContent()).toBe('cleaned\n')
      expect(await card.getByTestId('command-preview-exit').textContent()).toContain('Exit code 0')
      expect(await card.getByTestId('command-preview-limits').textContent()).toContain('Limits: 30 s')
      expect(await card.getByTestId('command-preview-on-approve').getAttribute('data-on-approve')).toBe(
        'apply'
      )
      // Nothing happened to the folder yet.
      expect(existsSync(join(chat.workspace, 'build', 'app.js'))).toBe(true)
      expect(readFileSync(join(chat.workspace, 'version.txt'), 'utf8')).toBe('version 1.0.0\n')

      await card
        .getByTestId('command-preview-file')
        .filter({ hasText: 'version.txt' })
        .getByTestId('command-preview-diff-toggle')
        .click()
      const diff = card.getByTestId('tool-diff')
      await expect.poll(() => diff.textContent()).toContain('version 1.0.1')
      expect(await diff.textContent()).toContain('version 1.0.0')
      await card.scrollIntoViewIfNeeded()
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(theme, page)
        await card.screenshot({ path: artifactPath(`command-preview-card-${theme}.png`) })
        await page.screenshot({ path: artifactPath(`command-preview-${theme}.png`) })
        expect(await seriousA11yViolations(page)).toEqual([])
      }
      await setTheme('light', page)

      await card.getByTestId('permission-allow-once').click()
      await card.waitFor({ state: 'detached' })
      await expect
        .poll(() => page.getByTestId('assistant-message').last().textContent(), { timeout: 15_000 })
        .toContain('Applied from preview')
      // The call's own block says which happened, in the words the model got.
      const block = page.locator('[data-testid="tool-call"][data-tool="exec"]').last()
      await block.getByTestId('tool-call-toggle').click()
      const terminal = block.getByTestId('tool-terminal')
      await expect.poll(() => terminal.textContent()).toContain('Applied from preview')
      expect(await terminal.textContent()).toContain('cleaned')
      await block.scrollIntoViewIfNeeded()
      await page.screenshot({ path: artifactPath('command-preview-applied-light.png') })
      expect(existsSync(join(chat.workspace, 'build'))).toBe(false)
      expect(readFileSync(join(chat.workspace, 'version.txt'), 'utf8')).toBe('version 1.0.1\n')
      expect(errors).toEqual([])
      await page.close()
    })

    it('names the connection the preview was refused, says approving runs the command for real, and then it really runs', async () => {
      const { page, errors } = await openChat(browser, chat.host)
      await page.setViewportSize({ width: 1280, height: 800 })
      await sendFromInput(page, 'fetch the page')
      const card = page.getByTestId('permission-card')
      await card.waitFor({ timeout: 15_000 })
      await expect
        .poll(() => card.getByTestId('command-preview').getAttribute('data-status'), { timeout: 30_000 })
        .toBe('done')
      expect(hits).toBe(0)
      const refused = card.getByTestId('command-preview-refused')
      expect(await refused.textContent()).toMatch(/network:.*Failed to connect to 127\.0\.0\.1/)
      const onApprove = card.getByTestId('command-preview-on-approve')
      expect(await onApprove.getAttribute('data-on-approve')).toBe('run')
      expect(await onApprove.textContent()).toContain('Approving runs the command for real')
      await card.scrollIntoViewIfNeeded()
      for (const theme of ['light', 'dark'] as const) {
        await setTheme(theme, page)
        await page.screenshot({ path: artifactPath(`command-preview-refused-${theme}.png`) })
        expect(await seriousA11yViolations(page)).toEqual([])
      }
      await setTheme('light', page)

      await card.getByTestId('permission-allow-once').click()
      await card.waitFor({ state: 'detached' })
      await expect
        .poll(() => page.getByTestId('assistant-message').last().textContent(), { timeout: 15_000 })
        .toContain('Ran for real after approval')
      expect(hits).toBe(1)
      expect(readFileSync(join(chat.workspace, 'page.html'), 'utf8')).toBe('the page\n')
      expect(errors).toEqual([])
      await page.close()
    })
  }
)
