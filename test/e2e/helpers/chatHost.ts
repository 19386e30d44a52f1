import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import WebSocket from 'ws'
import type { Browser, Page } from 'playwright-core'
import { BridgeClient } from '@renderer/api/bridge'
import { websocketTransport } from '@renderer/api/transports'
import { providersAdd, providersSetDefault } from '@shared/contracts/routes/providers.routes'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { appChooseFolder } from '@shared/contracts/routes/app.routes'
import {
  startFakeLlm,
  type FakeLlm,
  type FakeLlmOptions,
  type FakeScript,
  type ScriptedToolCall
} from '../../fixtures/llm/fakeLlm'
import { serve, type ServedHost } from './host'

export { seriousA11yViolations } from './a11y'

export const FAKE_PROVIDER_ID = 'fake-openai'
export const FAKE_MODEL_ID = 'fake-model'

/** A route client for the served host, over the same WebSocket protocol the page uses. */
export function hostBridge(host: ServedHost): BridgeClient {
  const url = new URL(host.url)
  const token = new URLSearchParams(url.hash.replace(/^#/, '')).get('token') ?? ''
  return new BridgeClient(
    websocketTransport({
      url: `ws://${url.host}/bridge?token=${encodeURIComponent(token)}`,
      WebSocketImpl: WebSocket as unknown as typeof globalThis.WebSocket
    })
  )
}

/** A folder as the page sends it once the user picked it: the host picker's token (this client only). */
export async function pickFolder(bridge: BridgeClient, path: string): Promise<string> {
  const { token } = await bridge.call(appChooseFolder, { path })
  if (!token) throw new Error(`the host picker did not pick ${path}`)
  return token
}

export interface ChatHost {
  host: ServedHost
  llm: FakeLlm
  bridge: BridgeClient
  dataDir: string
  workspace: string
  /** A fresh folder outside the workspace (writes there need permission). */
  outsideDir(): string
  stop(): Promise<void>
}

/**
 * The built headless host on a temp data folder, with an OpenAI-format fake LLM added through
 * the providers routes as the default model, and a workspace folder as the default workspace.
 */
export async function startChatHost(
  script: FakeScript,
  options: Pick<FakeLlmOptions, 'titleReply'> = {}
): Promise<ChatHost> {
  const dataDir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-chat-'))
  const workspace = mkdtempSync(join(tmpdir(), 'deepchat-e2e-ws-'))
  const extra: string[] = []
  const llm = await startFakeLlm({ kind: 'openai', script, ...options })
  const host = await serve(dataDir)
  const bridge = hostBridge(host)
  await bridge.call(providersAdd, {
    provider: {
      id: FAKE_PROVIDER_ID,
      kind: 'openai',
      name: 'Fake OpenAI',
      baseUrl: llm.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [
        {
          id: FAKE_MODEL_ID,
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
  await bridge.call(providersSetDefault, {
    defaultModel: { providerId: FAKE_PROVIDER_ID, modelId: FAKE_MODEL_ID }
  })
  await bridge.call(configUpdateSettings, {
    patch: { defaultWorkspaceDir: await pickFolder(bridge, workspace) }
  })
  return {
    host,
    llm,
    bridge,
    dataDir,
    workspace,
    outsideDir() {
      const dir = mkdtempSync(join(tmpdir(), 'deepchat-e2e-out-'))
      extra.push(dir)
      return dir
    },
    async stop() {
      await host.stop()
      await llm.close()
      for (const dir of [dataDir, workspace, ...extra]) rmSync(dir, { recursive: true, force: true })
    }
  }
}

export interface OpenedPage {
  page: Page
  errors: string[]
}

/** Opens the app with the theme and language forced through the page's own settings. */
export async function openChat(browser: Browser, host: ServedHost): Promise<OpenedPage> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  await page.goto(host.url)
  await page.getByTestId('chat-input-text').waitFor()
  return { page, errors }
}

/** Types a message into the chat input and presses Enter. */
export async function sendFromInput(page: Page, text: string): Promise<void> {
  await page.getByTestId('chat-input-text').fill(text)
  await page.getByTestId('chat-input-text').press('Enter')
}

export function toolCall(id: string, name: string, args: Record<string, unknown>): ScriptedToolCall {
  const json = JSON.stringify(args)
  const half = Math.floor(json.length / 2)
  return { id, name, argumentChunks: [json.slice(0, half), json.slice(half)] }
}

/**
 * The text of the last user message in an OpenAI chat request body ('' when there is none).
 * Content parts are joined by newlines, other parts shown as `[type]` (an image: `[image_url]`).
 */
export function lastUserText(body: unknown): string {
  const messages = (body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? []
  const user = [...messages].reverse().find((m) => m.role === 'user')
  if (typeof user?.content === 'string') return user.content
  const parts = Array.isArray(user?.content) ? (user.content as Array<{ type: string; text?: string }>) : []
  return parts.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type}]`)).join('\n')
}

export function textReply(text: string, delayMs = 0) {
  const words = text.split(/(?<= )/)
  if (!delayMs) return { steps: [{ type: 'text' as const, text: words }] }
  return {
    steps: words.flatMap((w) => [
      { type: 'text' as const, text: [w] },
      { type: 'delay' as const, ms: delayMs }
    ])
  }
}

export function callsReply(...calls: ScriptedToolCall[]) {
  return { steps: [{ type: 'tool_calls' as const, calls }] }
}
