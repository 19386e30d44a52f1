import { afterEach, describe, expect, it } from 'vitest'
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { EventStreamCodec } from '@smithy/eventstream-codec'
import { fromUtf8, toUtf8 } from '@smithy/util-utf8'
import { AwsV4Signer } from 'aws4fetch'
import {
  providersAdd,
  providersList,
  providersUpdate,
  providersVerify
} from '@shared/contracts/routes/providers.routes'
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
/**
 * A fake Bedrock: `answer` serves the runtime (`/model/…`), `control` the control plane's model
 * lists (by default, an account with no models).
 */
async function startFakeBedrock(
  answer: (res: ServerResponse) => void,
  control: (path: string, res: ServerResponse) => void = (_path, res) => json(res, {})
) {
  const requests: Recorded[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body })
      if (req.url?.startsWith('/model/')) answer(res)
      else control(req.url ?? '', res)
    })
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const runtime = () => requests.filter((r) => r.path.startsWith('/model/'))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, runtime }
}

function json(res: ServerResponse, body: unknown, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
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

    const [sent] = fake.runtime()
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
    const [sent] = fake.runtime()
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

describe('Amazon Bedrock model list', () => {
  const CLAUDE = 'anthropic.claude-3-5-haiku-20241022-v1:0'
  const foundationModels = {
    modelSummaries: [
      {
        modelId: CLAUDE,
        modelName: 'Claude 3.5 Haiku',
        inputModalities: ['TEXT', 'IMAGE'],
        outputModalities: ['TEXT'],
        inferenceTypesSupported: ['ON_DEMAND'],
        modelLifecycle: { status: 'ACTIVE' }
      },
      {
        modelId: 'amazon.nova-micro-v1:0',
        modelName: 'Nova Micro',
        inputModalities: ['TEXT'],
        inferenceTypesSupported: ['ON_DEMAND'],
        modelLifecycle: { status: 'ACTIVE' }
      },
      // Callable only through an inference profile, or retired: not listed as such.
      {
        modelId: 'anthropic.claude-sonnet-4-20250514-v1:0',
        inputModalities: ['TEXT', 'IMAGE'],
        inferenceTypesSupported: ['INFERENCE_PROFILE'],
        modelLifecycle: { status: 'ACTIVE' }
      },
      {
        modelId: 'anthropic.claude-v2:1',
        inputModalities: ['TEXT'],
        inferenceTypesSupported: ['ON_DEMAND'],
        modelLifecycle: { status: 'LEGACY' }
      }
    ]
  }
  const profilePages: Record<string, unknown> = {
    first: {
      inferenceProfileSummaries: [
        {
          inferenceProfileId: 'eu.anthropic.claude-sonnet-4-20250514-v1:0',
          inferenceProfileName: 'EU Claude Sonnet 4',
          status: 'ACTIVE',
          type: 'SYSTEM_DEFINED',
          models: [
            {
              modelArn: 'arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-sonnet-4-20250514-v1:0'
            }
          ]
        }
      ],
      nextToken: 'page+2/='
    },
    second: {
      inferenceProfileSummaries: [
        {
          inferenceProfileId: 'eu.amazon.nova-lite-v1:0',
          inferenceProfileName: 'EU Nova Lite',
          status: 'ACTIVE'
        }
      ]
    }
  }
  function controlPlane(path: string, res: ServerResponse): void {
    const url = new URL(path, 'http://x')
    if (url.pathname === '/foundation-models') return json(res, foundationModels)
    if (url.pathname === '/inference-profiles')
      return json(res, profilePages[url.searchParams.get('nextToken') === 'page+2/=' ? 'second' : 'first'])
    json(res, { message: 'not found' }, 404)
  }

  it('lists on-demand text models and active inference profiles when the provider is added, signed with SigV4', async () => {
    const fake = await startFakeBedrock((res) => converseStream(res, ['ok']), controlPlane)
    const { router } = harness()
    const { provider, modelFetch } = await router.call(providersAdd, {
      provider: {
        presetId: 'bedrock',
        baseUrl: fake.origin,
        apiKey: SECRET,
        settings: { region: 'eu-west-1', accessKeyId: ACCESS_KEY_ID }
      }
    })

    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /foundation-models?byOutputModality=TEXT',
      'GET /inference-profiles?maxResults=1000',
      `GET /inference-profiles?maxResults=1000&nextToken=${encodeURIComponent('page+2/=')}`
    ])
    for (const sent of fake.requests)
      expect(sent.headers.authorization).toBe(await expectedAuthorization(fake.origin, sent))

    const listed = new Map(provider.models.map((m) => [m.id, m]))
    // The four listed, and the preset's two (kept though this account does not list them).
    expect([...listed.keys()].sort()).toEqual(
      [
        'amazon.nova-micro-v1:0',
        'amazon.nova-pro-v1:0',
        CLAUDE,
        'eu.amazon.nova-lite-v1:0',
        'eu.anthropic.claude-sonnet-4-20250514-v1:0',
        MODEL
      ].sort()
    )
    expect(modelFetch).toMatchObject({ ok: true, listed: 4 })
    // Capabilities: images from the API (a profile inherits its model's), the rest from the
    // known-model table under the id without its region and vendor prefixes.
    expect(listed.get(CLAUDE)).toMatchObject({
      name: 'Claude 3.5 Haiku',
      vision: true,
      contextLength: 200_000
    })
    expect(listed.get('amazon.nova-micro-v1:0')).toMatchObject({ vision: false })
    expect(listed.get('eu.anthropic.claude-sonnet-4-20250514-v1:0')).toMatchObject({
      name: 'EU Claude Sonnet 4',
      vision: true,
      reasoning: true,
      maxOutputTokens: 64_000
    })
  })

  it('checks the keys with the model list, and reports a refused signature as auth', async () => {
    const fake = await startFakeBedrock(
      (res) => converseStream(res, ['ok']),
      (path, res) => json(res, { message: 'The security token included in the request is invalid.' }, 403)
    )
    const { router } = harness()
    const { modelFetch } = await router.call(providersAdd, {
      provider: {
        presetId: 'bedrock',
        baseUrl: fake.origin,
        apiKey: SECRET,
        sessionToken: SESSION_TOKEN,
        settings: { region: 'eu-west-1', accessKeyId: ACCESS_KEY_ID }
      }
    })
    // The preset's models are kept when the list cannot be read.
    expect(modelFetch).toMatchObject({ ok: false, listed: 0, enabled: 2 })
    expect(modelFetch?.message).toMatch(/security token/)
    const verified = await router.call(providersVerify, { id: 'bedrock' })
    expect(verified).toMatchObject({ ok: false, code: 'auth' })
    const [sent] = fake.requests
    expect(sent.headers['x-amz-security-token']).toBe(SESSION_TOKEN)
    expect(sent.headers.authorization).toBe(await expectedAuthorization(fake.origin, sent, SESSION_TOKEN))
  })
})
