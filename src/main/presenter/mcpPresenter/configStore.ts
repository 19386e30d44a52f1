import { z } from 'zod'
import { AppError } from '@shared/errors'
import {
  MASKED_SECRET,
  McpServerConfig,
  McpServerFields,
  McpServerId,
  McpServerInput,
  McpServerPatch,
  McpServerSlug,
  type McpServerConfig as McpServerConfigT
} from '@shared/types/mcp'
import { isSecretName } from '@shared/secretNames'
import type { ConfigPresenter } from '../configPresenter'

export const MCP_CONFIG_DOCUMENT = 'mcp.servers'

// Env or header names whose values are credentials go to secret storage.
export { isSecretName }

const StoredServer = McpServerFields.extend({
  id: McpServerId,
  /** Absent only in documents written before slugs existed; `read` fills it in once. */
  slug: McpServerSlug.optional(),
  secretEnv: z.array(z.string()).default([]),
  secretHeaders: z.array(z.string()).default([])
})
type StoredServer = z.output<typeof StoredServer> & { slug: string }
type DocumentServer = z.output<typeof StoredServer>

const McpConfigDocument = z.object({
  version: z.literal(1),
  servers: z.array(StoredServer),
  /** Built-ins already added once; a user who removes one does not get it back. */
  seededBuiltins: z.array(z.string()).default([])
})
/** The document as read, with every server's slug filled in. */
type McpConfigDocument = Omit<z.output<typeof McpConfigDocument>, 'servers'> & { servers: StoredServer[] }

/** A server as stored: secret values removed, names of the secret keys kept. */
export interface StoredServerConfig extends McpServerConfigT {
  secretKeys: { env: string[]; headers: string[] }
}

export type McpConfigBackend = Pick<
  ConfigPresenter,
  'getDocument' | 'setDocument' | 'getSecret' | 'setSecret' | 'deleteSecret'
>

function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')
}

function secretKey(id: string, kind: 'env' | 'header', name: string): string {
  return `mcp.${id}.${kind}.${name}`
}

/** Turns a display name into an id usable in permission rules: `My Server!` → `my-server`. */
export function slugifyServerName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .replace(/-+$/, '')
    .slice(0, 48)
  return slug || 'server'
}

/**
 * A slug from an id or name: the id itself when it is a valid slug (so existing servers keep
 * the tool names they had), else its letters and digits joined by `-`, cut to 32.
 */
export function slugFrom(value: string): string {
  if (McpServerSlug.safeParse(value).success) return value
  const slug = value
    .replace(/[^a-zA-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '')
  return slug || 'server'
}

function uniqueSlug(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) {
    const suffix = `-${n}`
    const candidate = `${base.slice(0, 32 - suffix.length).replace(/[-_]+$/, '')}${suffix}`
    if (!taken.has(candidate)) return candidate
  }
}

/**
 * The MCP server list in the config document, validated with zod on every write, with the
 * credential-looking env and header values moved to secret storage.
 */
export class McpConfigStore {
  /**
   * The parsed document. This store is its only writer, and every start, view and call reads
   * it, so it is parsed once per write instead of once per read (ten parallel starts read it
   * dozens of times, each parse validating every server). Frozen: readers share it.
   */
  private cached?: McpConfigDocument
  /** Ids of servers whose add is storing secrets and not yet written. */
  private readonly adding = new Set<string>()
  private readonly addingSlugs = new Set<string>()
  private seeding?: Promise<void>

  constructor(private readonly backend: McpConfigBackend) {}

  list(): StoredServerConfig[] {
    return this.read().servers.map(toPublic)
  }

  get(id: string): StoredServerConfig | undefined {
    const found = this.read().servers.find((s) => s.id === id)
    return found ? toPublic(found) : undefined
  }

  require(id: string): StoredServerConfig {
    const found = this.get(id)
    if (!found) throw new AppError('mcp_server_not_found', `No MCP server with id "${id}"`)
    return found
  }

  /** The full config with secrets filled in, for starting the server. Never sent to the renderer. */
  async resolve(id: string): Promise<McpServerConfigT> {
    const stored = this.require(id)
    const env = { ...stored.env }
    const headers = { ...stored.headers }
    for (const name of stored.secretKeys.env)
      env[name] = (await this.backend.getSecret(secretKey(id, 'env', name))) ?? ''
    for (const name of stored.secretKeys.headers)
      headers[name] = (await this.backend.getSecret(secretKey(id, 'header', name))) ?? ''
    const { secretKeys: _secretKeys, ...config } = stored
    return { ...config, env, headers }
  }

  /** `secretKeys` names values to keep secret whatever their names (a registry's `isSecret`). */
  async add(
    input: McpServerInput,
    secretKeys: { env: string[]; headers: string[] } = { env: [], headers: [] }
  ): Promise<StoredServerConfig> {
    const parsed = McpServerInput.safeParse(input)
    if (!parsed.success)
      throw new AppError('mcp_invalid_config', `Invalid MCP server: ${issuesText(parsed.error)}`)
    const taken = new Set([...this.read().servers.map((s) => s.id), ...this.adding])
    let id = parsed.data.id
    if (id && taken.has(id))
      throw new AppError('mcp_server_exists', `An MCP server with id "${id}" already exists`)
    if (!id) id = uniqueId(slugifyServerName(parsed.data.name), taken)
    const slugs = new Set([...this.read().servers.map((s) => s.slug), ...this.addingSlugs])
    if (parsed.data.slug && slugs.has(parsed.data.slug)) throw slugTaken(parsed.data.slug)
    const slug = parsed.data.slug ?? uniqueSlug(slugFrom(id), slugs)
    const { id: _ignored, slug: _slug, ...fields } = parsed.data
    // Reserved while its secrets are stored, so a concurrent add cannot take the id (and its secrets).
    this.adding.add(id)
    this.addingSlugs.add(slug)
    try {
      const stored = await this.splitSecrets({ ...fields, id, slug }, undefined, secretKeys)
      // Read again: other servers may have been added or changed during the await.
      const doc = this.read()
      this.write({ ...doc, servers: [...doc.servers, stored] })
      return toPublic(stored)
    } finally {
      this.adding.delete(id)
      this.addingSlugs.delete(slug)
    }
  }

  async update(id: string, patch: McpServerPatch): Promise<StoredServerConfig> {
    const parsedPatch = McpServerPatch.safeParse(patch)
    if (!parsedPatch.success)
      throw new AppError('mcp_invalid_config', `Invalid change: ${issuesText(parsedPatch.error)}`)
    const doc = this.read()
    const index = doc.servers.findIndex((s) => s.id === id)
    if (index < 0) throw new AppError('mcp_server_not_found', `No MCP server with id "${id}"`)
    const previous = doc.servers[index]
    const slug = parsedPatch.data.slug
    if (slug && slug !== previous.slug && doc.servers.some((s) => s.slug === slug)) throw slugTaken(slug)
    const { secretEnv: _e, secretHeaders: _h, ...previousFields } = previous
    const merged = { ...previousFields, ...parsedPatch.data, id }
    const checked = McpServerConfig.safeParse(merged)
    if (!checked.success)
      throw new AppError('mcp_invalid_config', `Invalid MCP server: ${issuesText(checked.error)}`)
    const stored = await this.splitSecrets(checked.data, previous)
    // Read again: other servers may have been added or changed during the await.
    const current = this.read()
    const currentIndex = current.servers.findIndex((s) => s.id === id)
    if (currentIndex < 0)
      throw new AppError('mcp_server_not_found', `MCP server "${id}" was removed while it was being changed`)
    const servers = [...current.servers]
    servers[currentIndex] = stored
    this.write({ ...current, servers })
    return toPublic(stored)
  }

  async remove(id: string): Promise<void> {
    const doc = this.read()
    const found = doc.servers.find((s) => s.id === id)
    if (!found) throw new AppError('mcp_server_not_found', `No MCP server with id "${id}"`)
    this.write({ ...doc, servers: doc.servers.filter((s) => s.id !== id) })
    await Promise.all([
      ...found.secretEnv.map((name) => this.backend.deleteSecret(secretKey(id, 'env', name))),
      ...found.secretHeaders.map((name) => this.backend.deleteSecret(secretKey(id, 'header', name)))
    ])
  }

  /** Adds each built-in server the first time this install sees it. */
  seedBuiltins(defaults: (McpServerInput & { id: string })[]): Promise<void> {
    // One seeding at a time: a second caller (launch and a settings page both starting servers)
    // waits for the first instead of adding the same built-ins again.
    this.seeding ??= this.seedFresh(defaults).finally(() => {
      this.seeding = undefined
    })
    return this.seeding
  }

  private async seedFresh(defaults: (McpServerInput & { id: string })[]): Promise<void> {
    const seeded = new Set(this.read().seededBuiltins)
    const fresh = defaults.filter((d) => !seeded.has(d.id))
    if (fresh.length === 0) return
    for (const input of fresh) {
      if (!this.get(input.id)) await this.add(input)
    }
    const doc = this.read()
    this.write({ ...doc, seededBuiltins: [...new Set([...doc.seededBuiltins, ...fresh.map((d) => d.id)])] })
  }

  private read(): McpConfigDocument {
    if (this.cached) return this.cached
    const doc = this.backend.getDocument(MCP_CONFIG_DOCUMENT, McpConfigDocument, {
      version: 1,
      servers: [],
      seededBuiltins: []
    })
    const slugged = withSlugs(doc.servers)
    // Written once: from then on a slug changes only when the user edits it.
    if (doc.servers.some((s) => !s.slug)) return this.write({ ...doc, servers: slugged })
    this.cached = deepFreeze({ ...doc, servers: slugged })
    return this.cached
  }

  private write(doc: McpConfigDocument): McpConfigDocument {
    const written = this.backend.setDocument(MCP_CONFIG_DOCUMENT, McpConfigDocument, doc)
    this.cached = deepFreeze({ ...written, servers: withSlugs(written.servers) })
    return this.cached
  }

  /**
   * Moves secret-looking values into secret storage. A value equal to MASKED_SECRET means "keep
   * what is stored" (the renderer only ever saw the mask); a secret key that disappeared is deleted.
   */
  private async splitSecrets(
    config: McpServerConfigT,
    previous: StoredServer | undefined,
    marked: { env: string[]; headers: string[] } = { env: [], headers: [] }
  ): Promise<StoredServer> {
    const env = await this.splitMap(config.id, 'env', config.env, previous?.secretEnv ?? [], marked.env)
    const headers = await this.splitMap(
      config.id,
      'header',
      config.headers,
      previous?.secretHeaders ?? [],
      marked.headers
    )
    return {
      ...config,
      env: env.plain,
      headers: headers.plain,
      secretEnv: env.secretNames,
      secretHeaders: headers.secretNames
    }
  }

  private async splitMap(
    id: string,
    kind: 'env' | 'header',
    values: Record<string, string>,
    previousSecrets: string[],
    marked: string[]
  ): Promise<{ plain: Record<string, string>; secretNames: string[] }> {
    const plain: Record<string, string> = {}
    const secretNames: string[] = []
    for (const [name, value] of Object.entries(values)) {
      if (value === MASKED_SECRET) {
        if (!previousSecrets.includes(name))
          throw new AppError('mcp_invalid_config', `${kind} "${name}" has no stored secret to keep`)
        secretNames.push(name)
      } else if (isSecretName(name) || previousSecrets.includes(name) || marked.includes(name)) {
        await this.backend.setSecret(secretKey(id, kind, name), value)
        secretNames.push(name)
      } else {
        plain[name] = value
      }
    }
    for (const name of previousSecrets) {
      if (!secretNames.includes(name)) await this.backend.deleteSecret(secretKey(id, kind, name))
    }
    return { plain, secretNames }
  }
}

/**
 * Servers from before slugs: each gets its id as the slug. Ids that are valid slugs claim theirs
 * first (ids are unique), so only ids like `my.server` are rewritten and suffixed.
 */
function withSlugs(servers: readonly DocumentServer[]): StoredServer[] {
  const taken = new Set(servers.flatMap((s) => (s.slug ? [s.slug] : [])))
  for (const server of servers) if (!server.slug && slugFrom(server.id) === server.id) taken.add(server.id)
  return servers.map((server) => {
    if (!server.slug && slugFrom(server.id) === server.id && !servers.some((s) => s.slug === server.id))
      return { ...server, slug: server.id }
    if (server.slug) return { ...server, slug: server.slug }
    const slug = uniqueSlug(slugFrom(server.id), taken)
    taken.add(slug)
    return { ...server, slug }
  })
}

function slugTaken(slug: string): AppError {
  return new AppError('mcp_slug_taken', `Another MCP server already uses the short name "${slug}"`)
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const child of Object.values(value)) deepFreeze(child)
  }
  return value
}

function uniqueId(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`
    if (!taken.has(candidate)) return candidate
  }
}

/** The stored form as the rest of main sees it: secret values shown as the mask. */
function toPublic(stored: StoredServer): StoredServerConfig {
  const { secretEnv, secretHeaders, ...config } = stored
  const env = { ...config.env }
  const headers = { ...config.headers }
  for (const name of secretEnv) env[name] = MASKED_SECRET
  for (const name of secretHeaders) headers[name] = MASKED_SECRET
  return { ...config, env, headers, secretKeys: { env: secretEnv, headers: secretHeaders } }
}
