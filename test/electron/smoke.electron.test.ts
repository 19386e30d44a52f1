import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { _electron, type ElectronApplication, type Page } from 'playwright-core'
import { startFakeLlm, type FakeLlm, type FakeResponse, type RecordedRequest } from '../fixtures/llm/fakeLlm'
import { appChooseFolder, appGetDesktopStatus, appGetInfo } from '@shared/contracts/routes/app.routes'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { providersAdd, providersSetDefault } from '@shared/contracts/routes/providers.routes'
import type { RouteDef, RouteInput, RouteOutput } from '@shared/contracts/define'
import type { RouteResult } from '@shared/contracts/envelope'
import { openAiBody } from '../fixtures/llm/openAiRequest'

// Run by `npm run test:electron` (scripts/test-electron.mjs), which sets the binary's path, builds
// the app and provides a display. The built app (out/) runs in a real Electron with a temp data folder.
const root = join(import.meta.dirname, '..', '..')
const binary = process.env.DEEPCHAT_ELECTRON_BINARY
if (!binary) throw new Error('run through npm run test:electron')

let app: ElectronApplication
let page: Page
let llm: FakeLlm
const dataDir = mkdtempSync(join(tmpdir(), 'deepchat-electron-data-'))
const workspace = mkdtempSync(join(tmpdir(), 'deepchat-electron-ws-'))
const outside = mkdtempSync(join(tmpdir(), 'deepchat-electron-out-'))
const target = join(outside, 'from-electron.txt')

function reply(request: RecordedRequest): FakeResponse {
  const body = openAiBody(request.body)
  const last = body.messages[body.messages.length - 1]
  if (last.role === 'tool') return { steps: [{ type: 'text', text: ['Written ', 'from Electron.'] }] }
  const json = JSON.stringify({ path: target, content: 'hello from the desktop app' })
  return { steps: [{ type: 'tool_calls', calls: [{ id: 'w1', name: 'write', argumentChunks: [json] }] }] }
}

/** A route call through the window's own preload bridge, exactly as the UI makes it. */
async function invoke<R extends RouteDef>(def: R, input: RouteInput<R>): Promise<RouteOutput<R>> {
  const result = (await page.evaluate(([r, i]) => window.deepchat?.invoke(r, i), [
    def.name,
    input
  ] as const)) as RouteResult
  if (!result.ok) throw new Error(`${def.name}: ${result.error.message}`)
  return def.output.parse(result.data) as RouteOutput<R>
}

beforeAll(async () => {
  llm = await startFakeLlm({ kind: 'openai', script: reply })
  app = await _electron.launch({
    executablePath: binary,
    args: [root],
    env: {
      ...process.env,
      DEEPCHAT_DESK_DATA_DIR: dataDir,
      DEEPCHAT_DESK_TEST_HOOKS: '1',
      ELECTRON_RENDERER_URL: ''
    }
  })
  page = await app.firstWindow()
  await page.getByTestId('chat-input-text').waitFor()
})

afterAll(async () => {
  await app?.close()
  await llm?.close()
  for (const dir of [dataDir, workspace, outside]) rmSync(dir, { recursive: true, force: true })
})

describe('the desktop app', () => {
  it('opens one window titled DeepChat Desk, using the temp data folder', async () => {
    expect(
      await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((w) => w.getTitle()))
    ).toEqual(['DeepChat Desk'])
    expect(await app.evaluate(({ app: electronApp }) => electronApp.getPath('userData'))).toBe(dataDir)
    expect((await invoke(appGetInfo, {})).platform).toBe('electron')
  })

  it('chats with a fake provider and runs a write after the user allows it', async () => {
    await invoke(providersAdd, {
      provider: {
        id: 'fake-openai',
        kind: 'openai',
        name: 'Fake OpenAI',
        baseUrl: llm.baseUrl,
        apiKey: 'sk-test-0123456789abcd',
        models: [
          {
            id: 'fake-model',
            name: 'Fake model',
            contextLength: 128_000,
            maxOutputTokens: 8192,
            vision: false,
            toolCalling: true,
            reasoning: false,
            enabled: true
          }
        ],
        maxRetries: 0
      }
    })
    await invoke(providersSetDefault, {
      defaultModel: { providerId: 'fake-openai', modelId: 'fake-model' }
    })
    // A folder reaches a route only as the folder dialog's pick: the dialog answers with the workspace.
    await app.evaluate(({ dialog }, folder) => {
      dialog.showOpenDialog = (async () => ({ canceled: false, filePaths: [folder] })) as never
    }, workspace)
    const { token } = await invoke(appChooseFolder, { path: workspace })
    await invoke(configUpdateSettings, { patch: { defaultWorkspaceDir: token! } })
    await page.reload()
    await page.getByTestId('chat-input-text').fill('please write a file outside')
    await page.getByTestId('chat-input-text').press('Enter')
    const dialog = page.getByTestId('permission-dialog')
    await dialog.waitFor({ timeout: 30_000 })
    expect(await dialog.getByTestId('permission-tool').textContent()).toBe('write')
    await dialog.getByTestId('permission-allow-once').click()
    const answer = page.getByTestId('assistant-message').last()
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 30_000 }).toBe('sent')
    expect(await answer.getByTestId('markdown').last().textContent()).toContain('Written from Electron.')
    expect(readFileSync(target, 'utf8')).toBe('hello from the desktop app')
  })

  it('has the application menu with the app’s shortcuts, and its New chat item reaches the window', async () => {
    const menu = await app.evaluate(({ Menu }) => {
      const items = ['command.newChat', 'command.search', 'command.settings'].map((id) =>
        Menu.getApplicationMenu()?.getMenuItemById(id)
      )
      return items.map((item) => item?.accelerator ?? null)
    })
    expect(menu).toEqual(['CmdOrCtrl+N', 'CmdOrCtrl+K', 'CmdOrCtrl+,'])
    await app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.getMenuItemById('command.settings')?.click())
    await expect.poll(() => page.evaluate(() => window.location.hash)).toContain('#/settings')
    await app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.getMenuItemById('command.newChat')?.click())
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe('#/')
  })

  it('has a tray icon with show/hide, new chat and quit', async () => {
    const tray = await app.evaluate(() => {
      const hooks = (
        globalThis as unknown as { __deepchatDesk: { trayExists(): boolean; trayMenuLabels(): string[] } }
      ).__deepchatDesk
      return { exists: hooks.trayExists(), labels: hooks.trayMenuLabels() }
    })
    expect(tray.exists).toBe(true)
    expect(tray.labels).toEqual(['Hide DeepChat Desk', 'New Chat', 'separator', 'Quit DeepChat Desk'])
  })

  it('keeps updates off in a development run', async () => {
    expect((await invoke(appGetDesktopStatus, {})).update).toEqual({
      state: 'disabled',
      reason: 'development'
    })
  })
})
