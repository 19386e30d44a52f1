import { createHash } from 'node:crypto'
import { createVertex } from '@ai-sdk/google-vertex'
import type { LanguageModel } from 'ai'
import { z } from 'zod'
import { GoogleAuth, type AuthClient } from 'google-auth-library'
import type { StoredProvider } from '@shared/types/provider'
import { classifyError, ProviderRequestError } from './errors'
import { beforeDeadline, getJson, MAX_LIST_PAGES, parse, type ListRequestOptions } from './listingHttp'
import type { RawModel } from './rawModel'

/** The fields of a Google service-account key file we need (the file has more). */
const ServiceAccountSchema = z.looseObject({
  type: z.literal('service_account'),
  project_id: z.string().optional(),
  client_email: z.string().min(3),
  private_key: z.string().includes('PRIVATE KEY'),
  token_uri: z.url().optional()
})
export type ServiceAccount = z.infer<typeof ServiceAccountSchema>

/** google-auth-library's token endpoint, fixed in its code whatever the key file says. */
const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token'
export const VERTEX_DEFAULT_LOCATION = 'us-central1'

/**
 * The Vertex secret is a service-account key file (JSON) or an express-mode API key.
 * Returns the parsed account, `null` for an API key, or throws for JSON that is not a key file.
 */
export function parseVertexSecret(secret: string): ServiceAccount | null {
  if (!secret.trim().startsWith('{')) return null
  let json: unknown
  try {
    json = JSON.parse(secret)
  } catch {
    throw new Error('The service-account key is not valid JSON')
  }
  const parsed = ServiceAccountSchema.safeParse(json)
  if (!parsed.success) {
    throw new Error('Not a service-account key file: it needs type, client_email and private_key')
  }
  return parsed.data
}

/** What the renderer sees of a Vertex secret: who it is, never the key. */
export function maskVertexSecret(secret: string): string | null {
  try {
    const account = parseVertexSecret(secret)
    return account ? `service account ${account.client_email}` : null
  } catch {
    return null
  }
}

// One SDK provider per Vertex provider, rebuilt when its key or settings change.
const providers = new Map<string, { key: string; vertex: ReturnType<typeof createVertex> }>()
// One auth client per service account, shared by chat and model listing, so its access token
// is reused across requests instead of a new token exchange for each one.
const authClients = new Map<string, AuthClient>()
const MAX_AUTH_CLIENTS = 8
const CLOUD_PLATFORM_SCOPE = 'https://www.googleapis.com/auth/cloud-platform'

/**
 * A Vertex model. A URL on googleapis.com means "Google's own endpoint", which the SDK builds
 * from project and location (or the express-mode URL for an API key); any other URL (a
 * gateway, a test server) is used as the base as it is.
 */
export function vertexModel(
  provider: StoredProvider,
  modelId: string,
  secret: string,
  fetch: typeof globalThis.fetch
): LanguageModel {
  const key = sha256(JSON.stringify([provider.baseUrl, provider.settings, secret]))
  let cached = providers.get(provider.id)
  if (cached?.key !== key) {
    cached = { key, vertex: createVertexProvider(provider, secret, fetch) }
    providers.set(provider.id, cached)
  }
  return cached.vertex(modelId)
}

function createVertexProvider(provider: StoredProvider, secret: string, fetch: typeof globalThis.fetch) {
  const baseURL = new URL(provider.baseUrl).hostname.endsWith('googleapis.com')
    ? undefined
    : provider.baseUrl.replace(/\/+$/, '')
  const account = parseVertexSecret(secret)
  if (!account) return createVertex({ apiKey: secret, baseURL, fetch })
  return createVertex({
    project: provider.settings.project ?? account.project_id,
    location: provider.settings.location ?? VERTEX_DEFAULT_LOCATION,
    baseURL,
    fetch,
    googleAuthOptions: { authClient: authClientFor(account, fetch) }
  })
}

function authClientFor(account: ServiceAccount, fetch: typeof globalThis.fetch): AuthClient {
  const key = sha256(JSON.stringify(account))
  let client = authClients.get(key)
  if (!client) {
    client = new GoogleAuth({ scopes: [CLOUD_PLATFORM_SCOPE] }).fromJSON(account, {
      transporterOptions: { fetchImplementation: tokenUriFetch(account.token_uri, fetch) }
    })
    // Keys are rarely replaced; a bound keeps old ones from piling up.
    if (authClients.size >= MAX_AUTH_CLIENTS) authClients.delete(authClients.keys().next().value!)
    authClients.set(key, client)
  }
  return client
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

/**
 * The token exchange goes to the key file's `token_uri` (private clouds, test servers), which
 * google-auth-library itself ignores.
 */
function tokenUriFetch(
  tokenUri: string | undefined,
  fetch: typeof globalThis.fetch
): typeof globalThis.fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    const target = tokenUri && url === GOOGLE_TOKEN_URL ? tokenUri : url
    return fetch(target, init)
  }
}

const PublisherModels = z.object({
  publisherModels: z.array(z.looseObject({ name: z.string() })).default([]),
  nextPageToken: z.string().optional()
})

/**
 * Google's models on Vertex (Model Garden's ListPublisherModels), kept to the Gemini chat
 * models. A service account is exchanged for an access token first; an express-mode key is
 * sent as it is.
 */
export async function listVertexModels(
  provider: Pick<StoredProvider, 'baseUrl' | 'settings'>,
  secret: string,
  options: ListRequestOptions
): Promise<RawModel[]> {
  const account = parseVertexSecret(secret)
  const location = provider.settings.location ?? VERTEX_DEFAULT_LOCATION
  const google = new URL(provider.baseUrl).hostname.endsWith('googleapis.com')
  const host =
    account && location !== 'global' ? `${location}-aiplatform.googleapis.com` : 'aiplatform.googleapis.com'
  // A gateway or test server stands where the SDK's `…/publishers/google` base would be.
  const base = google ? `https://${host}/v1beta1/publishers/google` : provider.baseUrl.replace(/\/+$/, '')
  const headers: Record<string, string> = account
    ? {
        authorization: `Bearer ${await beforeDeadline(accessToken(account, options.fetch ?? globalThis.fetch), options)}`,
        'x-goog-user-project': provider.settings.project ?? account.project_id ?? ''
      }
    : { 'x-goog-api-key': secret }
  const models: RawModel[] = []
  let token: string | undefined
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const url = `${base}/models?pageSize=100${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`
    const body = parse(PublisherModels, await getJson(url, headers, options))
    for (const model of body.publisherModels) {
      const id = model.name.slice(model.name.lastIndexOf('/') + 1)
      if (id.startsWith('gemini-') && !id.includes('embedding')) models.push({ id })
    }
    if (!body.nextPageToken) break
    token = body.nextPageToken
  }
  return models
}

async function accessToken(account: ServiceAccount, fetch: typeof globalThis.fetch): Promise<string> {
  try {
    const { token } = await authClientFor(account, fetch).getAccessToken()
    if (token) return token
  } catch (error) {
    // An answer from the token endpoint is a refusal of the key; no answer is a network fault.
    const status = (error as { response?: { status?: number } }).response?.status
    if (status === undefined) throw new ProviderRequestError(classifyError(error))
    throw new ProviderRequestError({
      code: 'auth',
      status,
      message: `Google refused the service account: ${error instanceof Error ? error.message : String(error)}`
    })
  }
  throw new ProviderRequestError({ code: 'auth', message: 'Google returned no access token' })
}
