import { afterEach, describe, expect, it } from 'vitest'
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EventStreamCodec } from '@smithy/eventstream-codec'
import { fromUtf8, toUtf8 } from '@smithy/util-utf8'
import { AwsV4Signer } from 'aws4fetch'
import { providersAdd, providersList, providersUpdate } from '@shared/contracts/routes/providers.routes'
import { collect, request, textOf, useHarness } from './helpers'

const harness = useHarness()
const ACCESS_KEY_ID = 'AKIAIOSFODNN7EXAMPLE'
const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'
const SESSION_TOKEN = 'IQoJb3JpZ2luX2VjEXAMPLE-session-token'
const MODEL = 'us.anthropic.claude-sonnet-4-20250514-v1:0'

interface Recorded {
  method: string
  path: string
  headers: IncomingHttpHeaders
  body: string
}

const codec = new EventStreamCodec(toUtf8, fromUtf8)
function frame(eventType: string, payload: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: eventType },
      ':message-type': { type: 'string', value: 'event' },
      ':content-type': { type: 'string', value: 'application/json' }
    },
    body: fromUtf8(JSON.stringify(payload))
  })
}

/** ConverseStream's answer as AWS event-stream frames; the last frame is split across two writes. */
function converseStream(res: ServerResponse, words: string[]): void {
  res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' })
  const frames = [
    frame('messageStart', { role: 'assistant' }),
    ...words.map((text) => frame('contentBlockDelta', { contentBlockIndex: 0, delta: { text } })),
    frame('contentBlockStop', { contentBlockIndex: 0 }),
    frame('messageStop', { stopReason: 'end_turn' }),
    frame('metadata', {
      usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
      metrics: { latencyMs: 5 }
    })
  ]
  for (const f of frames.slice(0, -1)) res.write(f)
  const last = frames.at(-1)!
  res.write(last.subarray(0, 10))
  res.end(last.subarray(10))
}

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})
async function startFakeBedrock(answer: (res: ServerResponse) => void) {
  const requests: Recorded[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body })
      answer(res)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}

async function bedrockAgainst(origin: string, sessionToken?: string) {
  const { router, providers } = harness()
  await router.call(providersAdd, {
    provider: {
      presetId: 'bedrock',
      baseUrl: origin,
      apiKey: SECRET,
      sessionToken,
      settings: { region: 'eu-west-1', accessKeyId: ACCESS_KEY_ID },
      maxRetries: 0
    }
  })
  const stream = () =>
    collect(providers.coreStream(request('bedrock', { modelId: MODEL }), new AbortController().signal))
  return { router, stream }
}

/** Recomputes the SigV4 signature of a received request from the same credentials. */
async function expectedAuthorization(origin: string, sent: Recorded, sessionToken?: string): Promise<string> {
  const signedNames = /SignedHeaders=([^,]+)/.exec(String(sent.headers.authorization))![1].split(';')
  const headers = Object.fromEntries(signedNames.map((name) => [name, String(sent.headers[name])]))
  const signer = new AwsV4Signer({
    method: sent.method,
    url: origin + sent.path,
    headers,
    body: sent.body,
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET,
    sessionToken,
    service: 'bedrock',
    region: 'eu-west-1',
    datetime: String(sent.headers['x-amz-date'])
  })
  return (await signer.sign()).headers.get('authorization')!
}

describe('Amazon Bedrock (@ai-sdk/amazon-bedrock)', () => {
  it('streams ConverseStream event-stream frames, the request signed with SigV4', async () => {
    const fake = await startFakeBedrock((res) => converseStream(res, ['Hello ', 'from ', 'Bedrock']))
    const { stream } = await bedrockAgainst(fake.origin)

    const events = await stream()
    expect(textOf(events)).toBe('Hello from Bedrock')
    expect(events.find((e) => e.type === 'usage')).toMatchObject({
      usage: { prompt_tokens: 7, completion_tokens: 3 }
    })
    expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'complete' })

    const [sent] = fake.requests
    expect(sent.method).toBe('POST')
    expect(sent.path).toBe(`/model/${encodeURIComponent(MODEL)}/converse-stream`)
    expect(sent.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=[^,]*host[^,]*, Signature=[0-9a-f]{64}$/
    )
    expect(sent.headers.authorization).toBe(await expectedAuthorization(fake.origin, sent))
    expect(sent.headers['x-amz-security-token']).toBeUndefined()
    expect(JSON.parse(sent.body)).toMatchObject({
      messages: [{ role: 'user', content: [{ text: 'Hello' }] }]
    })
  })

  it('signs with the session token of temporary credentials', async () => {
    const fake = await startFakeBedrock((res) => converseStream(res, ['ok']))
    const { stream } = await bedrockAgainst(fake.origin, SESSION_TOKEN)
    expect(textOf(await stream())).toBe('ok')
    const [sent] = fake.requests
    expect(sent.headers['x-amz-security-token']).toBe(SESSION_TOKEN)
    expect(sent.headers.authorization).toContain('x-amz-security-token')
    expect(sent.headers.authorization).toBe(await expectedAuthorization(fake.origin, sent, SESSION_TOKEN))
  })

  it('reports a rejected signature as auth', async () => {
    const fake = await startFakeBedrock((res) => {
      res.writeHead(403, {
        'content-type': 'application/json',
        'x-amzn-errortype': 'InvalidSignatureException'
      })
      res.end(JSON.stringify({ message: 'The request signature we calculated does not match' }))
    })
    const { stream } = await bedrockAgainst(fake.origin)
    const events = await stream()
    expect(events.find((e) => e.type === 'error')).toMatchObject({
      code: 'auth',
      category: 'auth',
      status: 403
    })
  })

  it('keeps the secret key and session token out of what the renderer sees', async () => {
    const fake = await startFakeBedrock((res) => converseStream(res, ['ok']))
    const { router } = await bedrockAgainst(fake.origin, SESSION_TOKEN)
    const { providers } = await router.call(providersList, {})
    expect(providers[0]).toMatchObject({
      kind: 'bedrock',
      hasApiKey: true,
      hasSessionToken: true,
      settings: { region: 'eu-west-1', accessKeyId: ACCESS_KEY_ID }
    })
    expect(JSON.stringify(providers)).not.toContain(SECRET)
    expect(JSON.stringify(providers)).not.toContain(SESSION_TOKEN)

    const cleared = await router.call(providersUpdate, { id: 'bedrock', patch: { sessionToken: null } })
    expect(cleared.provider.hasSessionToken).toBe(false)
  })
})
