import type { LLMCoreStreamEvent, LLMRequest } from '@shared/types/llm'

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
