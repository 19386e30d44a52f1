import { z } from 'zod'
import { AppError } from '@shared/errors'
import type { McpServerInput, McpServerView } from '@shared/types/mcp'
import {
  McpRegistrySettings,
  OFFICIAL_MCP_REGISTRY_URL,
  type McpRegistryListedServer,
  type McpRegistryPage,
  type McpRegistryServer,
  type McpRegistryTarget
} from '@shared/types/mcpRegistry'
import type { ConfigPresenter } from '../../configPresenter'
import { planInstall } from './installPlan'
import { RegistryCache, type CachedPage } from './registryCache'
import { MAX_PAGE_ITEMS, RegistryClient, RegistryUnreachable } from './registryClient'
import { findRuntimes, type RegistryRuntime } from './runtimes'
import { checkedUrl, RegistryDataRefused, SERVER_NAME, VERSION } from './serverJson'

const SETTINGS_DOCUMENT = 'mcp.registry'
const INSTALLS_DOCUMENT = 'mcp.registry.installs'
const DEFAULT_PAGE_SIZE = 30
const MAX_SEEN = 2_000

const Installs = z.object({
  installs: z.array(
    z.object({ serverId: z.string(), name: z.string(), version: z.string(), registryUrl: z.string() })
  )
})

/** What the registry needs of McpPresenter: adding a server (with the names to keep secret) and which exist. */
export interface RegistryServersPort {
  addServer(
    input: McpServerInput,
    options: { secretKeys: { env: string[]; headers: string[] } }
  ): Promise<McpServerView>
  serverIds(): string[]
}

export interface McpRegistryDeps {
  config: Pick<ConfigPresenter, 'getDocument' | 'setDocument'>
  /** The app's network door (its proxy). */
  fetch: typeof globalThis.fetch
  servers: RegistryServersPort
  /** The env servers start with: its PATH says which runtimes (npx, uvx, docker) exist. */
  serverEnv: () => Promise<Record<string, string>>
  /** Test knob: registries, remotes and package registries on this machine over plain http. */
  allowLoopbackHttp?: boolean
  now?: () => number
}

export interface McpRegistrySettingsView {
  url: string
  isOfficial: boolean
  runtimes: Record<RegistryRuntime, boolean>
}

/**
 * Settings › MCP › Browse registry: lists and searches a registry (the official one or the
 * user's), keeps the last pages for offline use, and installs a server's package (pinned
 * npx/uvx/docker line) or remote (with its headers) as an MCP server.
 */
export class McpRegistry {
  private readonly client: RegistryClient
  private readonly cache: RegistryCache
  /** Servers shown since launch, by registry, name and version: installs take them from here, never from the page. */
  private readonly seen = new Map<string, McpRegistryServer>()

  constructor(private readonly deps: McpRegistryDeps) {
    this.client = new RegistryClient({
      fetch: deps.fetch,
      readOptions: () => ({ allowLoopbackHttp: deps.allowLoopbackHttp ?? false })
    })
    this.cache = new RegistryCache(deps.config)
  }

  registryUrl(): string {
    const stored = this.deps.config.getDocument(SETTINGS_DOCUMENT, McpRegistrySettings, {
      url: OFFICIAL_MCP_REGISTRY_URL
    })
    return stored.url || OFFICIAL_MCP_REGISTRY_URL
  }

  async settings(): Promise<McpRegistrySettingsView> {
    const url = this.registryUrl()
    return {
      url,
      isOfficial: url === OFFICIAL_MCP_REGISTRY_URL,
      runtimes: await findRuntimes((await this.deps.serverEnv()).PATH)
    }
  }

  /** A blank URL means the official registry; any other must be https (a registry's answers steer installs). */
  async updateSettings(patch: { url: string }): Promise<McpRegistrySettingsView> {
    const trimmed = patch.url.trim()
    let url = OFFICIAL_MCP_REGISTRY_URL
    if (trimmed) {
      try {
        url = checkedUrl(trimmed, 'The registry address', {
          allowLoopbackHttp: this.deps.allowLoopbackHttp ?? false
        }).replace(/\/+$/, '')
      } catch (error) {
        if (error instanceof RegistryDataRefused) throw new AppError('invalid_setting', error.message)
        throw error
      }
      if (new URL(url).search || new URL(url).hash)
        throw new AppError('invalid_setting', 'The registry address must not have a query or fragment')
    }
    this.deps.config.setDocument(SETTINGS_DOCUMENT, McpRegistrySettings, { url })
    return this.settings()
  }

  /** One page of servers; when the registry cannot be reached, the cached page (or cached matches) with when it was fetched. */
  async list(query: { search?: string; cursor?: string; limit?: number }): Promise<McpRegistryPage> {
    const registryUrl = this.registryUrl()
    const search = (query.search ?? '').trim()
    const cursor = query.cursor ?? ''
    const limit = Math.min(query.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_ITEMS)
    try {
      const listing = await this.client.list(registryUrl, { search, cursor, limit })
      const page: CachedPage = { registryUrl, search, cursor, fetchedAt: this.now(), ...listing }
      this.cache.put(page)
      return this.pageView(page, 'live')
    } catch (error) {
      if (!(error instanceof RegistryUnreachable)) throw error
      const cached =
        this.cache.get(registryUrl, search, cursor) ??
        (cursor ? undefined : this.cache.search(registryUrl, search))
      if (!cached) throw new RegistryUnreachable(`${error.message}. Nothing from it is cached yet.`)
      return { ...this.pageView(cached, 'cache'), offlineReason: error.message }
    }
  }

  /** Installs one package or remote of a server the user was shown, with the values from the form. */
  async install(request: {
    name: string
    version: string
    target: McpRegistryTarget
    values: Record<string, string>
  }): Promise<McpServerView> {
    if (!SERVER_NAME.test(request.name) || !VERSION.test(request.version))
      throw new AppError('invalid_input', 'Not a registry server name and version')
    const registryUrl = this.registryUrl()
    const server = await this.serverFor(registryUrl, request.name, request.version)
    if (server.official?.status === 'deleted')
      throw new AppError(
        'mcp_registry_deleted',
        `${server.name} ${server.version} was deleted from the registry; it is not installed`
      )
    const plan = planInstall(server, request.target, request.values)
    if (plan.runtime) {
      const runtimes = await findRuntimes((await this.deps.serverEnv()).PATH)
      if (!runtimes[plan.runtime]) throw runtimeMissing(plan.runtime)
    }
    const view = await this.deps.servers.addServer(plan.input, { secretKeys: plan.secretKeys })
    const installs = this.installs().filter((i) => i.serverId !== view.id)
    installs.push({ serverId: view.id, name: server.name, version: server.version, registryUrl })
    this.deps.config.setDocument(INSTALLS_DOCUMENT, Installs, { installs })
    return view
  }

  private async serverFor(registryUrl: string, name: string, version: string): Promise<McpRegistryServer> {
    const known =
      this.seen.get(seenKey(registryUrl, name, version)) ?? this.cache.find(registryUrl, name, version)
    if (known) return known
    const fetched = await this.client.detail(registryUrl, name, version)
    this.remember(registryUrl, fetched)
    return fetched
  }

  private remember(registryUrl: string, server: McpRegistryServer): void {
    const key = seenKey(registryUrl, server.name, server.version)
    this.seen.delete(key)
    this.seen.set(key, server)
    // The oldest go first: a long browse does not grow this without bound.
    if (this.seen.size > MAX_SEEN) this.seen.delete(this.seen.keys().next().value!)
  }

  private pageView(page: CachedPage, source: McpRegistryPage['source']): McpRegistryPage {
    const existing = new Set(this.deps.servers.serverIds())
    const installs = this.installs().filter(
      (i) => i.registryUrl === page.registryUrl && existing.has(i.serverId)
    )
    const servers: McpRegistryListedServer[] = page.servers.map((server) => {
      this.remember(page.registryUrl, server)
      const installed = installs.find((i) => i.name === server.name)
      return installed ? { ...server, installedAs: installed.serverId } : server
    })
    return {
      registryUrl: page.registryUrl,
      servers,
      nextCursor: page.nextCursor,
      refused: page.refused,
      source,
      fetchedAt: page.fetchedAt
    }
  }

  private installs(): z.infer<typeof Installs>['installs'] {
    return this.deps.config.getDocument(INSTALLS_DOCUMENT, Installs, { installs: [] }).installs
  }

  private now(): number {
    return (this.deps.now ?? Date.now)()
  }
}

function seenKey(registryUrl: string, name: string, version: string): string {
  return `${registryUrl}\n${name}\n${version}`
}

function runtimeMissing(runtime: RegistryRuntime): AppError {
  const how = {
    npx: 'Node.js (npx) is not installed or not on the PATH; install Node.js to run npm packages',
    uvx: 'uv (uvx) is not installed or not on the PATH; install uv to run PyPI packages',
    docker: 'Docker is not installed or not on the PATH; install Docker to run container images'
  }[runtime]
  return new AppError('mcp_registry_runtime_missing', how, { runtime })
}
