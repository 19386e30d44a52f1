import { afterEach, describe, expect, it } from 'vitest'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createVerify, generateKeyPairSync } from 'node:crypto'
import {
  providersAdd,
  providersList,
  providersUpdate,
  providersVerify
} from '@shared/contracts/routes/providers.routes'
import { listVertexModels } from '../../../src/main/presenter/llmProviderPresenter/vertex'
import { collect, request, textOf, useFakeLlms, useHarness } from './helpers'

const harness = useHarness()
const fake = useFakeLlms()
const ACCESS_TOKEN = 'ya29.fake-access-token-for-tests'
const EMAIL = 'chat-app@my-project-123.iam.gserviceaccount.com'

/** A local OAuth token endpoint: records each token request and answers with ACCESS_TOKEN. */
const tokenServers: Server[] = []
afterEach(async () => {
  for (const server of tokenServers.splice(0)) await new Promise((resolve) => server.close(resolve))
})
async function startTokenServer() {
  const bodies: URLSearchParams[] = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()))
    req.on('end', () => {
      bodies.push(new URLSearchParams(raw))
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ access_token: ACCESS_TOKEN, expires_in: 3600, token_type: 'Bearer' }))
    })
  })
  tokenServers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`, bodies }
}

function serviceAccount(tokenUri: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    publicKeyEncoding: { type: 'spki', format: 'pem' }
  })
  const json = JSON.stringify({
    type: 'service_account',
    project_id: 'my-project-123',
    private_key_id: 'abc123',
    private_key: privateKey,
    client_email: EMAIL,
    client_id: '1234567890',
    token_uri: tokenUri
  })
  return { json, publicKey, privateKey }
}

async function vertexAgainstFake(secret: string, bearer: string) {
  const { router, providers, presenters } = harness()
  const server = await fake({
    kind: 'gemini',
    apiKey: bearer,
    script: () => ({ steps: [{ type: 'text', text: ['Hello ', 'from ', 'Vertex'] }] })
  })
  await router.call(providersAdd, {
    provider: { presetId: 'vertex', baseUrl: server.baseUrl, apiKey: secret, maxRetries: 0 }
  })
  await router.call(providersUpdate, {
    id: 'vertex',
    patch: { settings: { location: 'europe-west4' } }
  })
  const stream = () =>
    collect(
      providers.coreStream(request('vertex', { modelId: 'gemini-2.5-flash' }), new AbortController().signal)
    )
  return { router, presenters, server, stream }
}

describe('Google Vertex (@ai-sdk/google-vertex)', () => {
  it('exchanges a signed service-account JWT at the key file token_uri and streams with the access token', async () => {
    const tokens = await startTokenServer()
    const account = serviceAccount(tokens.url)
    const { server, stream } = await vertexAgainstFake(account.json, ACCESS_TOKEN)

    const events = await stream()
    expect(textOf(events)).toBe('Hello from Vertex')
    expect(events.at(-1)).toEqual({ type: 'stop', stop_reason: 'complete' })

    const [sent] = server.generationRequests()
    expect(sent.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse')
    expect(sent.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`)
    expect(sent.headers['x-goog-api-key']).toBeUndefined()

    // google-auth-library signed the assertion with the key from the file (RS256).
    expect(tokens.bodies).toHaveLength(1)
    expect(tokens.bodies[0].get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer')
    const [header, payload, signature] = tokens.bodies[0].get('assertion')!.split('.')
    const verifier = createVerify('RSA-SHA256').update(`${header}.${payload}`)
    expect(verifier.verify(account.publicKey, Buffer.from(signature, 'base64url'))).toBe(true)
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { iss: string; scope: string }
    expect(claims.iss).toBe(EMAIL)
    expect(claims.scope).toContain('https://www.googleapis.com/auth/cloud-platform')

    // The access token is reused for the next request.
    await stream()
    expect(server.generationRequests()).toHaveLength(2)
    expect(tokens.bodies).toHaveLength(1)
  })

  it('sends an express-mode API key as x-goog-api-key', async () => {
    const key = 'AQ.vertex-express-key-0123456789'
    const { server, stream } = await vertexAgainstFake(key, key)
    expect(textOf(await stream())).toBe('Hello from Vertex')
    const [sent] = server.generationRequests()
    expect(sent.headers['x-goog-api-key']).toBe(key)
    expect(sent.headers.authorization).toBeUndefined()
  })

  it('shows only the service account e-mail, and keeps the private key out of SQLite', async () => {
    const tokens = await startTokenServer()
    const account = serviceAccount(tokens.url)
    const { router, presenters } = await vertexAgainstFake(account.json, ACCESS_TOKEN)
    const { providers } = await router.call(providersList, {})
    expect(providers[0]).toMatchObject({
      kind: 'vertex',
      hasApiKey: true,
      apiKeyMasked: `service account ${EMAIL}`,
      settings: { location: 'europe-west4' }
    })
    const keyBody = account.privateKey.split('\n')[1]
    expect(JSON.stringify(providers)).not.toContain(keyBody)
    presenters.sqlite.db.pragma('wal_checkpoint(TRUNCATE)')
    const db = readdirSync(presenters.platform.userDataDir)
      .filter((f) => f.startsWith('deepchat.db'))
      .map((f) => readFileSync(join(presenters.platform.userDataDir, f)).toString('latin1'))
      .join('')
    expect(db).toContain('europe-west4')
    expect(db).not.toContain(keyBody)
    expect(await presenters.config.getSecret('provider:vertex:apiKey')).toBe(account.json)
  })

  it('refuses JSON that is not a service-account key, and stores nothing', async () => {
    const { router, presenters } = harness()
    await expect(
      router.call(providersAdd, { provider: { presetId: 'vertex', apiKey: '{"type":"authorized_user"}' } })
    ).rejects.toThrow(/service-account key/)
    expect((await router.call(providersList, {})).providers).toHaveLength(0)
    expect(await presenters.config.getSecret('provider:vertex:apiKey')).toBeUndefined()
  })
})

/** Model Garden's ListPublisherModels, two pages; records each request's path and headers. */
async function startPublisherModels() {
  const requests: Array<{ path: string; headers: Record<string, string | string[] | undefined> }> = []
  const pages: Record<string, unknown> = {
    first: {
      publisherModels: [
        { name: 'publishers/google/models/gemini-2.5-flash', versionId: '001', launchStage: 'GA' },
        { name: 'publishers/google/models/imagen-4.0-generate-001' },
        { name: 'publishers/google/models/gemini-embedding-001' }
      ],
      nextPageToken: 'next/page=2'
    },
    second: { publisherModels: [{ name: 'publishers/google/models/gemini-2.5-pro' }] }
  }
  const server = createServer((req, res) => {
    requests.push({ path: req.url ?? '', headers: req.headers })
    const url = new URL(req.url ?? '', 'http://x')
    res.writeHead(url.pathname === '/models' ? 200 : 404, { 'content-type': 'application/json' })
    res.end(JSON.stringify(pages[url.searchParams.get('pageToken') === 'next/page=2' ? 'second' : 'first']))
  })
  tokenServers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}

describe('Google Vertex model list', () => {
  it("lists Google's Gemini models when added, with the service account's token and project", async () => {
    const tokens = await startTokenServer()
    const account = serviceAccount(tokens.url)
    const garden = await startPublisherModels()
    const { router } = harness()
    const { provider, modelFetch } = await router.call(providersAdd, {
      provider: { presetId: 'vertex', baseUrl: garden.baseUrl, apiKey: account.json }
    })
    expect(garden.requests.map((r) => r.path)).toEqual([
      '/models?pageSize=100',
      `/models?pageSize=100&pageToken=${encodeURIComponent('next/page=2')}`
    ])
    for (const sent of garden.requests) {
      expect(sent.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`)
      expect(sent.headers['x-goog-user-project']).toBe('my-project-123')
    }
    // One token exchange for both pages; image and embedding models are not chat models.
    expect(tokens.bodies).toHaveLength(1)
    expect(provider.models.map((m) => m.id).sort()).toEqual(['gemini-2.5-flash', 'gemini-2.5-pro'])
    expect(provider.models.find((m) => m.id === 'gemini-2.5-pro')).toMatchObject({
      contextLength: 1_048_576,
      vision: true
    })
    expect(modelFetch).toMatchObject({ ok: true, listed: 2 })
  })

  it('lists with an express-mode key, and reports a refused service account as auth', async () => {
    const garden = await startPublisherModels()
    const { router } = harness()
    const key = 'AQ.vertex-express-key-0123456789'
    const { modelFetch } = await router.call(providersAdd, {
      provider: { presetId: 'vertex', baseUrl: garden.baseUrl, apiKey: key }
    })
    expect(modelFetch).toMatchObject({ ok: true, listed: 2 })
    expect(garden.requests[0].headers['x-goog-api-key']).toBe(key)
    expect(garden.requests[0].headers.authorization).toBeUndefined()

    // A token endpoint that refuses the key: the list is not asked for, and the cause is named.
    const refusing = createServer((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' }))
    })
    tokenServers.push(refusing)
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve))
    const revoked = serviceAccount(`http://127.0.0.1:${(refusing.address() as AddressInfo).port}/token`)
    const before = garden.requests.length
    await router.call(providersUpdate, { id: 'vertex', patch: { apiKey: revoked.json } })
    const verified = await router.call(providersVerify, { id: 'vertex' })
    expect(verified).toMatchObject({ ok: false, code: 'auth' })
    expect(verified.message).toMatch(/invalid_grant|Invalid JWT/)
    expect(garden.requests).toHaveLength(before)
  })
})

describe('Google Vertex model list against a token endpoint that never answers', () => {
  it('gives up at the deadline with a network error instead of holding the caller', async () => {
    const silent = createServer(() => {}) // accepts, never answers
    tokenServers.push(silent)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const account = serviceAccount(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/token`)
    const started = Date.now()
    const listing = listVertexModels({ baseUrl: 'http://127.0.0.1:9/v1', settings: {} }, account.json, {
      signal: AbortSignal.timeout(300)
    })
    await expect(listing).rejects.toMatchObject({ classified: { code: 'network', category: 'timeout' } })
    expect(Date.now() - started).toBeLessThan(5_000)
    silent.closeAllConnections()
  })
})
