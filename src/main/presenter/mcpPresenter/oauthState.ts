import type { McpOAuthState } from '@shared/types/mcp'
import { McpOAuthProvider, type OAuthSecretStore } from './oauth'

/**
 * Whether a server signs in with OAuth (a remote server without its own Authorization header,
 * when the app offers OAuth) and whether tokens from an earlier sign-in are stored.
 */
export async function oauthStateOf(
  server: { id: string; type: string; headers: Record<string, string> },
  secrets: Pick<OAuthSecretStore, 'getSecret'>,
  oauthEnabled: boolean
): Promise<McpOAuthState> {
  const remote = server.type === 'http' || server.type === 'sse'
  const staticToken = Object.keys(server.headers).some((h) => h.toLowerCase() === 'authorization')
  if (!oauthEnabled || !remote || staticToken) return { applicable: false, signedIn: false }
  const raw = await secrets.getSecret(McpOAuthProvider.secretKey(server.id))
  try {
    const stored = JSON.parse(raw ?? '{}') as { tokens?: { access_token?: unknown } }
    return {
      applicable: true,
      signedIn: typeof stored.tokens?.access_token === 'string' && stored.tokens.access_token !== ''
    }
  } catch {
    return { applicable: true, signedIn: false }
  }
}
