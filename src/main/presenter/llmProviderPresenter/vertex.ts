import { createHash } from 'node:crypto'
import { createVertex } from '@ai-sdk/google-vertex'
import type { LanguageModel } from 'ai'
import { z } from 'zod'
import type { StoredProvider } from '@shared/types/provider'

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

// One provider per key and settings, so google-auth-library's cached access token is reused
// across requests instead of a new token exchange for each one.
const cache = new Map<string, ReturnType<typeof createVertex>>()

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
  const cacheKey = createHash('sha256')
    .update(JSON.stringify([provider.id, provider.baseUrl, provider.settings, secret]))
    .digest('hex')
  let vertex = cache.get(cacheKey)
  if (!vertex) {
    vertex = createVertexProvider(provider, secret, fetch)
    cache.set(cacheKey, vertex)
  }
  return vertex(modelId)
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
    googleAuthOptions: {
      credentials: account,
      clientOptions: { transporterOptions: { fetchImplementation: tokenUriFetch(account.token_uri) } }
    }
  })
}

/**
 * The token exchange goes to the key file's `token_uri` (private clouds, test servers), which
 * google-auth-library itself ignores.
 */
function tokenUriFetch(tokenUri: string | undefined): typeof globalThis.fetch {
  return (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    const target = tokenUri && url === GOOGLE_TOKEN_URL ? tokenUri : url
    return globalThis.fetch(target, init)
  }
}
