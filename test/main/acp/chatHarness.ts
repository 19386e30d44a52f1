import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach } from 'vitest'
import type { RouteDef, RouteInput, RouteOutput } from '@shared/contracts/define'
import { appChooseFolder } from '@shared/contracts/routes/app.routes'
import { chatRespondToolInteraction, chatSendMessage } from '@shared/contracts/routes/chat.routes'
import { ACP_PROVIDER_ID } from '@shared/types/acp'
import type { PermissionMode } from '@shared/types/permission'
import type { MessageRecord, PendingInteraction } from '@shared/types/session'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createShellEnvResolver } from '../../../src/main/presenter/mcpPresenter/shellEnv'
import { createRouter } from '../../../src/main/routes'
import { fakeAgentProgram } from '../../fixtures/acp/build'
import { startFakeLlm, type FakeLlm, type FakeScript } from '../../fixtures/llm/fakeLlm'
import { useTempDirs } from '../helpers/tempDir'
import { readRecords } from './harness'

const CTX = { transport: 'test' as const, clientId: 'test' }
/** One login-shell read per test file. */
const shellEnv = createShellEnvResolver({ timeoutMs: 3_000 })
export const AGENT_ID = 'fake'
/** The OpenAI-format fake provider a chat can use instead of the agent (`llm` option). */
export const LLM_MODEL = { providerId: 'fake-openai', modelId: 'fake-model' }

/** The whole app on a temp data folder, with the fake agent added as a custom agent (on). */
export interface AcpChat {
  presenters: Presenters
  events: Array<{ name: string; payload: unknown }>
  dataDir: string
  workspace: string
  /** A folder outside the workspace. */
  outside: string
  /** Starts a turn with the agent as the chat's model (a new chat unless `sessionId`). */
  /** The fake LLM server when the chat was opened with an `llm` script. */
  llm: FakeLlm | null
  send(
    text: string,
    options?: {
      sessionId?: string
      permissionMode?: PermissionMode
      /** A new chat's model: the fake agent unless given. */
      model?: { providerId: string; modelId: string }
    }
  ): Promise<{ sessionId: string; assistantMessageId: string }>
  /** Calls a route, typed by its contract; an error is thrown as an AppError. */
  call<R extends RouteDef>(def: R, input: RouteInput<R>): Promise<RouteOutput<R>>
  /** Waits until the session's run ended (completed, paused, stopped or failed). */
  idle(sessionId: string): Promise<void>
  message(messageId: string): MessageRecord
  pending(sessionId: string): PendingInteraction[]
  answer(
    interaction: PendingInteraction,
    decision: 'allow_once' | 'allow_session' | 'allow_always' | 'deny'
  ): Promise<RouteOutput<typeof chatRespondToolInteraction>>
  /** The agent's said text in a message (its content blocks joined). */
  said(messageId: string): string
  records(): Record<string, unknown>[]
  /** Closes the app and opens it again on the same data folder (agents are killed in between). */
  restart(): Promise<void>
}

export function useAcpChat(): (options?: {
  caps?: Record<string, unknown>
  llm?: FakeScript
}) => Promise<AcpChat> {
  const tempDir = useTempDirs()
  const opened: AcpChat[] = []
  afterEach(async () => {
    for (const chat of opened.splice(0)) {
      await chat.presenters.dispose()
      await chat.llm?.close()
    }
  })
  return async (options = {}) => {
    const dataDir = tempDir()
    const workspace = tempDir()
    const outside = tempDir()
    const agentDir = tempDir()
    const recordFile = join(agentDir, 'record.jsonl')
    mkdirSync(join(agentDir, 'state'))
    const events: AcpChat['events'] = []
    const open = () => {
      const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), {
        log: () => {},
        shellEnv
      })
      presenters.events.subscribe((name, payload) => events.push({ name, payload }))
      return { presenters, router: createRouter(presenters) }
    }
    let app = open()
    const call = <R extends RouteDef>(def: R, input: RouteInput<R>) => app.router.call(def, input, CTX)
    const chat: AcpChat = {
      get presenters() {
        return app.presenters
      },
      events,
      llm: null,
      dataDir,
      workspace,
      outside,
      async send(text, opts = {}) {
        const data = await call(chatSendMessage, {
          text,
          ...(opts.sessionId
            ? { sessionId: opts.sessionId }
            : {
                newSession: {
                  ...(opts.model ?? { providerId: ACP_PROVIDER_ID, modelId: AGENT_ID }),
                  workspaceDir: (await call(appChooseFolder, { path: workspace })).token,
                  permissionMode: opts.permissionMode ?? 'default'
                }
              })
        })
        if (data.assistantMessageId === null) throw new Error('send: the text was queued, no turn started')
        return { sessionId: data.sessionId, assistantMessageId: data.assistantMessageId }
      },
      call,
      idle: (sessionId) => app.presenters.agentRuntime.idle(sessionId),
      message: (messageId) => app.presenters.sessions.messages.require(messageId),
      pending: (sessionId) => app.presenters.sessions.interactions.list({ sessionId, status: 'pending' }),
      answer: (interaction, decision) =>
        call(chatRespondToolInteraction, {
          sessionId: interaction.sessionId,
          messageId: interaction.messageId,
          interactionId: interaction.id,
          response: { kind: 'permission', decision }
        }),
      said: (messageId) =>
        chat
          .message(messageId)
          .blocks.filter((b) => b.kind === 'content')
          .map((b) => b.text)
          .join(''),
      records: () => readRecords(recordFile),
      async restart() {
        await app.presenters.dispose()
        app = open()
      }
    }
    opened.push(chat)
    if (options.llm) {
      chat.llm = await startFakeLlm({ kind: 'openai', script: options.llm })
      await app.presenters.llmProviders.addProvider({
        id: LLM_MODEL.providerId,
        kind: 'openai',
        name: 'Fake',
        baseUrl: chat.llm.baseUrl,
        apiKey: 'sk-test-0123456789abcd',
        models: [{ id: LLM_MODEL.modelId, name: 'Fake model' }],
        maxRetries: 0
      })
    }
    await app.presenters.acp.addCustomAgent({
      id: AGENT_ID,
      name: 'Fake agent',
      command: process.execPath,
      args: [fakeAgentProgram()],
      env: {
        FAKE_ACP_RECORD: recordFile,
        FAKE_ACP_STATE: join(agentDir, 'state'),
        FAKE_ACP_CAPS: JSON.stringify(options.caps ?? {})
      }
    })
    return chat
  }
}
