import { createServer as createHttpServer, type Server } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { randomBytes } from 'node:crypto'
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js'
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from '@modelcontextprotocol/sdk/shared/auth.js'
import { AppError } from '@shared/errors'
import { checkExternalUrl, shownUrl } from '../../platform/externalUrl'

export interface OAuthSecretStore {
  getSecret(key: string): Promise<string | undefined>
  setSecret(key: string, value: string): Promise<void>
  deleteSecret(key: string): Promise<void>
}

export interface McpOAuthOptions {
  secrets: OAuthSecretStore
  /** Opens the authorization page in the user's browser. */
  openUrl: (url: string) => Promise<void>
  clientName?: string
  /** How long to wait for the user to finish in the browser. */
  authorizationTimeoutMs?: number
}

/** What the flow keeps per server in secret storage. */
interface StoredAuth {
  port?: number
  client?: OAuthClientInformationMixed
  tokens?: OAuthTokens
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

const CALLBACK_PATH = '/oauth/callback'

/**
 * OAuth for one http/sse server, driven by the SDK: it discovers the authorization server,
 * registers a client dynamically, runs PKCE and refreshes tokens; this class stores what it
 * gets in secret storage and receives the browser redirect on a loopback port (RFC 8252).
 * The port is kept with the registered client, because the redirect URI is part of it.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  private verifier = ''
  private expectedState = ''
  private pending?: { promise: Promise<string>; cancel: () => void }

  private constructor(
    private readonly serverId: string,
    private readonly options: McpOAuthOptions,
    private stored: StoredAuth,
    private readonly port: number
  ) {}

  static async create(serverId: string, options: McpOAuthOptions): Promise<McpOAuthProvider> {
    const key = McpOAuthProvider.secretKey(serverId)
    let stored: StoredAuth
    try {
      stored = JSON.parse((await options.secrets.getSecret(key)) ?? '{}') as StoredAuth
    } catch {
      stored = {}
    }
    let port = stored.port
    if (!port) {
      port = await freeLoopbackPort()
      // A new port is a new redirect URI: a registration made for another one no longer fits.
      // A client registered out of band (no redirect_uris stored) is kept.
      const uris = (stored.client as { redirect_uris?: string[] } | undefined)?.redirect_uris
      const redirect = `http://127.0.0.1:${port}${CALLBACK_PATH}`
      stored = { ...stored, port, client: uris && !uris.includes(redirect) ? undefined : stored.client }
      await options.secrets.setSecret(key, JSON.stringify(stored))
    }
    return new McpOAuthProvider(serverId, options, stored, port)
  }

  static secretKey(serverId: string): string {
    return `mcp.${serverId}.oauth`
  }

  static async forget(serverId: string, secrets: OAuthSecretStore): Promise<void> {
    await secrets.deleteSecret(McpOAuthProvider.secretKey(serverId))
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}${CALLBACK_PATH}`
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.options.clientName ?? 'DeepChat Desk',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none'
    }
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('hex')
    return this.expectedState
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.stored.client
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    this.stored = { ...this.stored, client }
    await this.persist()
  }

  tokens(): OAuthTokens | undefined {
    return this.stored.tokens
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    this.stored = { ...this.stored, tokens }
    await this.persist()
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier
  }

  codeVerifier(): string {
    if (!this.verifier) throw new AppError('mcp_oauth_failed', 'No authorization is in progress')
    return this.verifier
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier') this.verifier = ''
    if (scope === 'all' || scope === 'client')
      this.stored = { port: this.stored.port, tokens: scope === 'client' ? this.stored.tokens : undefined }
    if (scope === 'tokens') this.stored = { ...this.stored, tokens: undefined }
    await this.persist()
  }

  /**
   * Starts listening for the redirect, then sends the user to the authorization page. The page
   * comes from the server's metadata: anything but an http(s) address (file:, smb:, a scheme
   * that launches a program) is refused here and named in the server's error.
   */
  async redirectToAuthorization(url: URL): Promise<void> {
    const check = checkExternalUrl(url.href)
    if (!check.ok)
      throw new AppError(
        'mcp_oauth_failed',
        `The server's sign-in page was not opened: ${shownUrl(url.href)} (${check.reason})`
      )
    this.pending?.cancel()
    this.pending = this.listenForCode()
    await this.options.openUrl(check.href)
  }

  /** True after the SDK asked the user to authorize; the code then arrives on the loopback. */
  get awaitingAuthorization(): boolean {
    return this.pending !== undefined
  }

  async waitForAuthorizationCode(): Promise<string> {
    if (!this.pending) throw new AppError('mcp_oauth_failed', 'No authorization is in progress')
    try {
      return await this.pending.promise
    } finally {
      this.pending = undefined
    }
  }

  cancel(): void {
    this.pending?.cancel()
    this.pending = undefined
  }

  private async persist(): Promise<void> {
    await this.options.secrets.setSecret(
      McpOAuthProvider.secretKey(this.serverId),
      JSON.stringify(this.stored)
    )
  }

  private listenForCode(): { promise: Promise<string>; cancel: () => void } {
    let server: Server | undefined
    let timer: NodeJS.Timeout | undefined
    let rejectWait: (error: Error) => void = () => {}
    const finish = () => {
      clearTimeout(timer)
      server?.close()
      server?.closeAllConnections?.()
    }
    const promise = new Promise<string>((resolve, reject) => {
      rejectWait = reject
      server = createHttpServer((req, res) => {
        const url = new URL(req.url ?? '/', this.redirectUrl)
        if (url.pathname !== CALLBACK_PATH) {
          res.writeHead(404).end()
          return
        }
        const error = url.searchParams.get('error')
        const code = url.searchParams.get('code')
        const state = url.searchParams.get('state')
        const ok = !error && code && (!this.expectedState || state === this.expectedState)
        res.writeHead(ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8' })
        // Close the listener only once the page is delivered, or the browser sees a reset.
        res.end(
          ok
            ? '<p>Signed in. You can close this tab and return to DeepChat Desk.</p>'
            : '<p>Sign-in failed. You can close this tab.</p>',
          finish
        )
        if (ok) resolve(code)
        else
          reject(
            new AppError(
              'mcp_oauth_failed',
              error
                ? `Authorization was refused: ${error}`
                : 'The authorization response did not match this sign-in'
            )
          )
      })
      server.once('error', (e) => {
        finish()
        reject(
          new AppError(
            'mcp_oauth_failed',
            `Cannot listen for the sign-in redirect on port ${this.port}: ${e.message}`
          )
        )
      })
      server.listen(this.port, '127.0.0.1')
      timer = setTimeout(
        () => {
          finish()
          reject(new AppError('mcp_oauth_failed', 'Sign-in was not completed in time'))
        },
        this.options.authorizationTimeoutMs ?? 5 * 60_000
      )
    })
    // Nobody may be waiting yet; an unobserved rejection must not crash the process.
    promise.catch(() => {})
    return {
      promise,
      cancel: () => {
        finish()
        rejectWait(new AppError('mcp_oauth_failed', 'Sign-in was cancelled'))
      }
    }
  }
}
