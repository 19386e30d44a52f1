import { AppError } from '@shared/errors'
import type { LLMCoreStreamEvent, LLMRequest } from '@shared/types/llm'
import type { SessionRecord } from '@shared/types/session'
import type { SessionPresenter } from '../sessionPresenter'

/** The system prompt of a title request (test servers recognise title requests by it). */
export const TITLE_SYSTEM_PROMPT =
  'You name chat conversations. Reply with a title of at most six words in the language of the conversation: no quotes, no punctuation at the end, nothing else.'

const MAX_INPUT_CHARS = 1_500
const MAX_TITLE_CHARS = 60

export interface TitleSource {
  providerId: string
  modelId: string
  userText: string
  answerText: string
}

/**
 * Asks the chat's own model for a short title after the first answer. Any failure yields null:
 * the chat keeps the title it got from its first line.
 */
export async function askForTitle(
  coreStream: (request: LLMRequest, signal: AbortSignal) => AsyncIterable<LLMCoreStreamEvent>,
  source: TitleSource,
  signal: AbortSignal
): Promise<string | null> {
  const request: LLMRequest = {
    providerId: source.providerId,
    modelId: source.modelId,
    maxTokens: 60,
    maxRetries: 0,
    messages: [
      { role: 'system', content: TITLE_SYSTEM_PROMPT },
      {
        role: 'user',
        content: `User: ${source.userText.slice(0, MAX_INPUT_CHARS)}\n\nAssistant: ${source.answerText.slice(0, MAX_INPUT_CHARS)}\n\nTitle:`
      }
    ]
  }
  let text = ''
  for await (const event of coreStream(request, signal)) {
    if (event.type === 'text') text += event.content
    else if (event.type === 'error') return null
  }
  return cleanTitle(text)
}

/** The first line of the reply without quotes, markdown or a "Title:" label, cut at a word. */
export function cleanTitle(raw: string): string | null {
  const line = raw
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l !== '')
  if (!line) return null
  const bare = line
    .replace(/^#+\s*/, '')
    .replace(/^(title|标题)\s*[:：]\s*/i, '')
    .replace(/^[*_"'“”「『《]+|[*_"'“”」』》]+$/g, '')
    .replace(/[.。!！]+$/, '')
    .replace(/\s+/g, ' ')
    .trim()
  if (!bare) return null
  if (bare.length <= MAX_TITLE_CHARS) return bare
  const cut = bare.slice(0, MAX_TITLE_CHARS)
  const space = cut.lastIndexOf(' ')
  return `${space > 20 ? cut.slice(0, space) : cut}…`
}

export interface ChatTitlerDeps {
  coreStream: (request: LLMRequest, signal: AbortSignal) => AsyncIterable<LLMCoreStreamEvent>
  sessions: Pick<SessionPresenter, 'require' | 'rename' | 'messages'>
  /** The `autoTitle` setting, read when the answer arrives. */
  enabled: () => boolean
  log?: (message: string) => void
}

/**
 * Names new chats: after a chat's first completed answer its model is asked for a title, in the
 * background, and the title replaces the first-line one unless the user renamed the chat meanwhile.
 */
export class ChatTitler {
  /** New chats still carrying their first-line title, until their first completed answer. */
  private readonly untitled = new Map<string, { placeholder: string; userText: string }>()
  private readonly inFlight = new Map<Promise<void>, { sessionId: string; controller: AbortController }>()

  constructor(private readonly deps: ChatTitlerDeps) {}

  remember(session: SessionRecord, userText: string): void {
    this.untitled.set(session.id, { placeholder: session.title, userText })
  }

  forget(sessionId: string): void {
    this.untitled.delete(sessionId)
  }

  afterAnswer(sessionId: string, answer: { messageId: string; providerId: string; modelId: string }): void {
    const pending = this.untitled.get(sessionId)
    if (!pending) return
    this.untitled.delete(sessionId)
    if (!this.deps.enabled()) return
    const answerText = this.deps.sessions.messages
      .require(answer.messageId)
      .blocks.filter((b) => b.kind === 'content')
      .map((b) => b.text)
      .join('\n')
    const controller = new AbortController()
    const source = {
      providerId: answer.providerId,
      modelId: answer.modelId,
      userText: pending.userText,
      answerText
    }
    const task: Promise<void> = askForTitle(this.deps.coreStream, source, controller.signal)
      .then((title) => {
        if (
          title &&
          !controller.signal.aborted &&
          this.deps.sessions.require(sessionId).title === pending.placeholder
        ) {
          this.deps.sessions.rename(sessionId, title)
        }
      })
      .catch((error: unknown) => this.deps.log?.(`chat title not generated: ${String(error)}`))
      .finally(() => this.inFlight.delete(task))
    this.inFlight.set(task, { sessionId, controller })
  }

  /** Resolves once no title is being asked for this session. */
  async settled(sessionId: string): Promise<void> {
    const tasks = [...this.inFlight].filter(([, t]) => t.sessionId === sessionId).map(([task]) => task)
    await Promise.all(tasks)
  }

  /** Cancels titles still being asked for and waits for them to settle. */
  async dispose(): Promise<void> {
    for (const { controller } of this.inFlight.values())
      controller.abort(new AppError('shutdown', 'The app is closing'))
    await Promise.all(this.inFlight.keys())
  }
}
