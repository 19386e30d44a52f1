import { afterEach } from 'vitest'
import type { EventDef, EventPayload, RouteDef, RouteInput, RouteOutput } from '@shared/contracts/define'
import { appChooseFolder } from '@shared/contracts/routes/app.routes'
import { AppError } from '@shared/errors'
import { chatSendMessage } from '@shared/contracts/routes/chat.routes'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import {
  startFakeLlm,
  type FakeLlm,
  type FakeScript,
  type ScriptedToolCall
} from '../../fixtures/llm/fakeLlm'
import { openAiBody, type OpenAiRequest } from '../../fixtures/llm/openAiRequest'
import { useTempDirs } from '../helpers/tempDir'
import type { PermissionMode } from '@shared/types/session'

export interface LoopHarness {
  presenters: Presenters
  router: ReturnType<typeof createRouter>
  events: Array<{ name: string; payload: unknown }>
  llm: FakeLlm
  dataDir: string
  workspace: string
  providerId: string
  /** Starts a turn in a new session (or `sessionId`) through the real route. */
  /** `workspaceDir`: the harness workspace by default; null for a scratch folder; 'omit' leaves it to the settings. */
  send(
    text: string,
    options?: { sessionId?: string; permissionMode?: PermissionMode; workspaceDir?: string | null | 'omit' }
  ): Promise<{ sessionId: string; assistantMessageId: string }>
  idle(sessionId: string): Promise<void>
  /** Reopens the app on the same data folder (a restart). */
  restart(): Promise<void>
  /** The generation requests' bodies, in order. */
  bodies(): OpenAiRequest[]
}

export const tempDir = useTempDirs()
const CTX = { transport: 'test' as const, clientId: 'test' }

/** Real presenters on a temp dir with an OpenAI-format fake server as the only provider. */
export function useLoopHarness(): (
  script: FakeScript,
  options?: {
    contextLength?: number
    maxOutputTokens?: number
    providerKind?: 'openai' | 'openai-compatible'
    titleReply?: string
    /** The fake model takes images. */
    vision?: boolean
  }
) => Promise<LoopHarness> {
  const cleanups: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return async (script, options = {}) => {
    const llm = await startFakeLlm({ kind: 'openai', script, titleReply: options.titleReply })
    cleanups.push(() => llm.close())
    const dataDir = tempDir()
    const workspace = tempDir()
    const events: LoopHarness['events'] = []
    const open = () => {
      const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
      presenters.events.subscribe((name, payload) => events.push({ name, payload }))
      return presenters
    }
    const harness: LoopHarness = {
      presenters: open(),
      router: undefined as never,
      events,
      llm,
      dataDir,
      workspace,
      providerId: 'fake-openai',
      async send(text, opts = {}) {
        const result = await harness.router.invoke(
          chatSendMessage.name,
          {
            text,
            ...(opts.sessionId
              ? { sessionId: opts.sessionId }
              : {
                  newSession: {
                    providerId: 'fake-openai',
                    modelId: 'fake-model',
                    ...(opts.workspaceDir === 'omit'
                      ? {}
                      : {
                          workspaceDir: await picked(
                            harness,
                            opts.workspaceDir === undefined ? workspace : opts.workspaceDir
                          )
                        }),
                    permissionMode: opts.permissionMode ?? 'default'
                  }
                })
          },
          CTX
        )
        if (!result.ok) throw new Error(`send failed: ${JSON.stringify(result.error)}`)
        const { sessionId, assistantMessageId } = chatSendMessage.output.parse(result.data)
        // A busy session queues the text instead (no message yet): tests queue through call().
        if (assistantMessageId === null) throw new Error('send: the text was queued, no turn started')
        return { sessionId, assistantMessageId }
      },
      idle: (sessionId) => harness.presenters.agentRuntime.idle(sessionId),
      async restart() {
        await harness.presenters.dispose()
        harness.presenters = open()
        harness.router = createRouter(harness.presenters)
      },
      bodies: () => llm.generationRequests().map((r) => openAiBody(r.body))
    }
    harness.router = createRouter(harness.presenters)
    cleanups.push(() => harness.presenters.dispose())
    await harness.presenters.llmProviders.addProvider({
      id: 'fake-openai',
      kind: options.providerKind ?? 'openai',
      name: 'Fake',
      baseUrl: llm.baseUrl,
      apiKey: 'sk-test-0123456789abcd',
      models: [
        {
          id: 'fake-model',
          name: 'Fake model',
          contextLength: options.contextLength,
          maxOutputTokens: options.maxOutputTokens,
          vision: options.vision
        }
      ],
      maxRetries: 0
    })
    return harness
  }
}

export function toolCall(id: string, name: string, args: Record<string, unknown>): ScriptedToolCall {
  const json = JSON.stringify(args)
  const half = Math.floor(json.length / 2)
  return { id, name, argumentChunks: [json.slice(0, half), json.slice(half)] }
}

export function textReply(text: string) {
  return { steps: [{ type: 'text' as const, text: text.split(/(?<= )/) }] }
}

export function callsReply(...calls: ScriptedToolCall[]) {
  return { steps: [{ type: 'tool_calls' as const, calls }] }
}

/** Tool result messages of an OpenAI request body, in order. */
export function toolResults(body: OpenAiRequest): Array<{ tool_call_id: string; content: string }> {
  return body.messages
    .filter((m) => m.role === 'tool')
    .map((m) => ({
      tool_call_id: m.tool_call_id ?? '',
      content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content)
    }))
}

/** The payloads of the events `def` the harness heard, in order, typed by the event's contract. */
export function eventsOf<E extends EventDef>(h: Pick<LoopHarness, 'events'>, def: E): EventPayload<E>[] {
  return h.events
    .filter((e) => e.name === def.name)
    .map((e) => def.payload.parse(e.payload) as EventPayload<E>)
}

/**
 * A folder as the page sends it after the user picked it: a pick token from `app.chooseFolder`
 * (the headless host's picker). Null (a scratch folder) stays null.
 */
export async function picked(h: Pick<LoopHarness, 'router'>, folder: string | null): Promise<string | null> {
  if (folder === null) return null
  const result = await h.router.invoke(appChooseFolder.name, { path: folder }, CTX)
  if (!result.ok) throw new Error(`pick failed: ${JSON.stringify(result.error)}`)
  return appChooseFolder.output.parse(result.data).token
}

/**
 * Calls a route through the real router, typed by its contract (input and output). An error
 * comes back thrown as an AppError with the route's code and message.
 */
export function call<R extends RouteDef>(
  h: Pick<LoopHarness, 'router'>,
  def: R,
  input: RouteInput<R>
): Promise<RouteOutput<R>> {
  return h.router.call(def, input, CTX)
}

/** Like `call`, with input its contract does not allow: what a client that skips the types sends. */
export async function callUnchecked<R extends RouteDef>(
  h: Pick<LoopHarness, 'router'>,
  def: R,
  input: unknown
): Promise<RouteOutput<R>> {
  const result = await h.router.invoke(def.name, input, CTX)
  if (!result.ok) throw new AppError(result.error.code, result.error.message, result.error.details)
  return def.output.parse(result.data) as RouteOutput<R>
}
