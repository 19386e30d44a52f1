import { describe, expect, it } from 'vitest'
import { coalesceStream, mergeEvents } from '../../../src/main/presenter/llmProviderPresenter/sseCoalescer'

const openAi = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }], ...extra })}`
const anthropic = (index: number, delta: Record<string, unknown>) =>
  `event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index, delta })}`
const gemini = (part: Record<string, unknown>) =>
  `data: ${JSON.stringify({ candidates: [{ content: { parts: [part], role: 'model' }, index: 0 }] })}`

function dataOf(output: string): unknown[] {
  return output
    .split('\n\n')
    .filter(Boolean)
    .map((e) =>
      e
        .split('\n')
        .find((l) => l.startsWith('data: '))!
        .slice(6)
    )
    .map((d) => (d === '[DONE]' ? d : JSON.parse(d)))
}

describe('SSE delta coalescing', () => {
  it('merges consecutive OpenAI text deltas and leaves tool calls, finish and [DONE] in order', () => {
    const toolCall = openAi({
      tool_calls: [{ index: 0, id: 'call_1', function: { name: 'f', arguments: '{"a"' } }]
    })
    const finish = `data: ${JSON.stringify({ id: 'c1', choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] })}`
    const out = mergeEvents(
      [
        openAi({ content: 'Hel' }),
        openAi({ content: 'lo ' }),
        openAi({ content: '"wörld"\n' }),
        toolCall,
        openAi({ content: '!' }),
        finish,
        'data: [DONE]'
      ],
      'openai'
    )
    const data = dataOf(out) as Array<{ choices?: Array<{ delta: { content?: string } }> }>
    expect(data).toHaveLength(5)
    expect(data[0].choices![0].delta).toEqual({ content: 'Hello "wörld"\n' })
    expect(out.split('\n\n')[1]).toBe(toolCall)
    expect(data[2].choices![0].delta).toEqual({ content: '!' })
    expect(out.split('\n\n')[3]).toBe(finish)
    expect(data[4]).toBe('[DONE]')
  })

  it('passes a lone delta on byte for byte', () => {
    const event = openAi({ content: 'only' })
    expect(mergeEvents([event], 'openai')).toBe(`${event}\n\n`)
  })

  it('never merges reasoning with content', () => {
    const out = mergeEvents(
      [
        openAi({ reasoning_content: 'a' }),
        openAi({ reasoning_content: 'b' }),
        openAi({ content: 'c' }),
        openAi({ content: 'd' })
      ],
      'openai'
    )
    expect(
      (dataOf(out) as Array<{ choices: Array<{ delta: unknown }> }>).map((d) => d.choices[0].delta)
    ).toEqual([{ reasoning_content: 'ab' }, { content: 'cd' }])
  })

  it('merges deltas whose envelopes differ (e.g. a per-chunk field) through a full parse', () => {
    const out = mergeEvents(
      [openAi({ content: 'x' }, { obfuscation: 'aa' }), openAi({ content: 'y' }, { obfuscation: 'bbbb' })],
      'openai'
    )
    expect(dataOf(out)).toEqual([
      {
        id: 'c1',
        object: 'chat.completion.chunk',
        choices: [{ index: 0, delta: { content: 'xy' }, finish_reason: null }],
        obfuscation: 'aa'
      }
    ])
  })

  it('keeps a chunk that carries usage or a finish reason as it is', () => {
    const withUsage = openAi({ content: 'z' }, { usage: { prompt_tokens: 1 } })
    const out = mergeEvents([openAi({ content: 'a' }), withUsage], 'openai')
    expect(out.split('\n\n')[1]).toBe(withUsage)
  })

  it('merges Anthropic text within one block only and keeps signatures apart', () => {
    const signature = anthropic(0, { type: 'signature_delta', signature: 'sig' })
    const out = mergeEvents(
      [
        anthropic(0, { type: 'thinking_delta', thinking: 'hm' }),
        anthropic(0, { type: 'thinking_delta', thinking: 'm.' }),
        signature,
        anthropic(1, { type: 'text_delta', text: 'A' }),
        anthropic(1, { type: 'text_delta', text: 'B' }),
        anthropic(2, { type: 'text_delta', text: 'C' })
      ],
      'anthropic'
    )
    const events = out.split('\n\n').filter(Boolean)
    expect(events).toHaveLength(4)
    expect(events[0]).toBe(anthropic(0, { type: 'thinking_delta', thinking: 'hmm.' }))
    expect(events[1]).toBe(signature)
    expect(events[2]).toBe(anthropic(1, { type: 'text_delta', text: 'AB' }))
    expect(events[3]).toBe(anthropic(2, { type: 'text_delta', text: 'C' }))
  })

  it('merges Gemini text parts but not thoughts with text or function calls', () => {
    const call = gemini({ functionCall: { name: 'f', args: {} } })
    const out = mergeEvents(
      [
        gemini({ text: 'think', thought: true }),
        gemini({ text: 'ing', thought: true }),
        gemini({ text: 'Hi' }),
        gemini({ text: '!' }),
        call
      ],
      'gemini'
    )
    const events = out.split('\n\n').filter(Boolean)
    expect(events).toEqual([gemini({ text: 'thinking', thought: true }), gemini({ text: 'Hi!' }), call])
  })

  it('gives the same text however the bytes are split across reads, with CRLF line ends too', async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `t${i} "q" \u00e9\u{1F600}\\ `)
    const body = texts.map((t) => openAi({ content: t })).join('\n\n') + '\n\ndata: [DONE]\n\n'
    for (const [chunkSize, lineEnd] of [
      [7, '\n'],
      [113, '\r\n'],
      [4096, '\n']
    ] as const) {
      const bytes = new TextEncoder().encode(body.replaceAll('\n', lineEnd))
      const source = new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < bytes.length; i += chunkSize) controller.enqueue(bytes.slice(i, i + chunkSize))
          controller.close()
        }
      })
      const out = await new Response(coalesceStream(source, 'openai')).text()
      const data = dataOf(out)
      expect(data.at(-1)).toBe('[DONE]')
      const merged = (data.slice(0, -1) as Array<{ choices: Array<{ delta: { content: string } }> }>).map(
        (d) => d.choices[0].delta.content
      )
      expect(merged.join('')).toBe(texts.join(''))
      if (chunkSize === 4096) expect(merged.length).toBeLessThan(texts.length / 10)
    }
  })
})
