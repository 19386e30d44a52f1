import { z } from 'zod'
import { AppError } from '@shared/errors'
import { MASKED_SECRET } from '@shared/types/mcp'
import {
  AcpAgentId,
  AcpCustomAgentInput,
  AcpCustomAgentPatch,
  AcpEnvMap,
  type AcpCustomAgentInput as AcpCustomAgentInputT,
  type AcpCustomAgentPatch as AcpCustomAgentPatchT
} from '@shared/types/acp'
import { isSecretName, slugifyServerName, type McpConfigBackend } from '../mcpPresenter/configStore'

export const ACP_CONFIG_DOCUMENT = 'acp.agents'

const StoredCustomAgent = z.object({
  id: AcpAgentId,
  name: z.string(),
  command: z.string(),
  args: z.array(z.string()),
  env: AcpEnvMap,
  secretEnv: z.array(z.string()).default([]),
  description: z.string().default('')
})
type StoredCustomAgent = z.output<typeof StoredCustomAgent>

const AgentSettings = z.object({
  enabled: z.boolean().optional(),
  envOverrides: AcpEnvMap.default({}),
  secretOverrides: z.array(z.string()).default([])
})
type AgentSettings = z.output<typeof AgentSettings>

const AcpConfigDocument = z.object({
  version: z.literal(1),
  custom: z.array(StoredCustomAgent).default([]),
  settings: z.record(z.string(), AgentSettings).default({})
})
type AcpConfigDocument = z.output<typeof AcpConfigDocument>

/** The config document and secret storage, as configPresenter offers them. */
export type AcpConfigBackend = McpConfigBackend

/** A custom agent with secret values masked; what the rest of main and the routes see. */
export interface CustomAgentConfig {
  id: string
  name: string
  command: string
  args: string[]
  env: Record<string, string>
  secretEnv: string[]
  description: string
}

export interface AgentSettingsView {
  enabled: boolean
  envOverrides: Record<string, string>
  secretOverrides: string[]
}

type SecretKind = 'env' | 'override'

function secretKey(id: string, kind: SecretKind, name: string): string {
  return `acp.${id}.${kind}.${name}`
}

function issuesText(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')
}

/**
 * Custom agents, per-agent enable switches and env overrides, in the `acp.agents` config
 * document. Values whose names look like credentials go to secret storage (`acp.<id>.env.<NAME>`,
 * `acp.<id>.override.<NAME>`); the document keeps only their names, routes show the mask.
 */
export class AcpAgentStore {
  private cached?: AcpConfigDocument

  constructor(private readonly backend: AcpConfigBackend) {}

  listCustom(): CustomAgentConfig[] {
    return this.read().custom.map(toPublic)
  }

  getCustom(id: string): CustomAgentConfig | undefined {
    const found = this.read().custom.find((a) => a.id === id)
    return found ? toPublic(found) : undefined
  }

  /** Adds a custom agent; its id is derived from the name unless given, never taken from `taken`. */
  async addCustom(input: AcpCustomAgentInputT, taken: Set<string>): Promise<CustomAgentConfig> {
    const parsed = AcpCustomAgentInput.safeParse(input)
    if (!parsed.success)
      throw new AppError('acp_invalid_config', `Invalid agent: ${issuesText(parsed.error)}`)
    const { id: wanted, ...fields } = parsed.data
    if (wanted && taken.has(wanted))
      throw new AppError('acp_agent_exists', `An agent with id "${wanted}" already exists`)
    const id = wanted ?? uniqueId(slugifyServerName(fields.name), taken)
    const { plain, secretNames } = await this.splitSecrets(id, 'env', fields.env, [])
    const stored: StoredCustomAgent = { ...fields, id, env: plain, secretEnv: secretNames }
    const doc = this.read()
    this.write({ ...doc, custom: [...doc.custom, stored] })
    return toPublic(stored)
  }

  async updateCustom(id: string, patch: AcpCustomAgentPatchT): Promise<CustomAgentConfig> {
    const parsed = AcpCustomAgentPatch.safeParse(patch)
    if (!parsed.success)
      throw new AppError('acp_invalid_config', `Invalid change: ${issuesText(parsed.error)}`)
    const previous = this.requireStored(id)
    let next: StoredCustomAgent = { ...previous, ...parsed.data, env: previous.env }
    if (parsed.data.env) {
      const { plain, secretNames } = await this.splitSecrets(id, 'env', parsed.data.env, previous.secretEnv)
      next = { ...next, env: plain, secretEnv: secretNames }
    }
    const doc = this.read()
    this.write({ ...doc, custom: doc.custom.map((a) => (a.id === id ? next : a)) })
    return toPublic(next)
  }

  async removeCustom(id: string): Promise<void> {
    const found = this.requireStored(id)
    const doc = this.read()
    const { [id]: settings, ...otherSettings } = doc.settings
    this.write({ ...doc, custom: doc.custom.filter((a) => a.id !== id), settings: otherSettings })
    await Promise.all([
      ...found.secretEnv.map((name) => this.backend.deleteSecret(secretKey(id, 'env', name))),
      ...(settings?.secretOverrides ?? []).map((name) =>
        this.backend.deleteSecret(secretKey(id, 'override', name))
      )
    ])
  }

  /** Registry agents are off until the user turns them on; custom agents are on when added. */
  settingsOf(id: string, enabledByDefault: boolean): AgentSettingsView {
    const stored = this.read().settings[id]
    const overrides = { ...(stored?.envOverrides ?? {}) }
    for (const name of stored?.secretOverrides ?? []) overrides[name] = MASKED_SECRET
    return {
      enabled: stored?.enabled ?? enabledByDefault,
      envOverrides: overrides,
      secretOverrides: [...(stored?.secretOverrides ?? [])]
    }
  }

  setEnabled(id: string, enabled: boolean): void {
    const doc = this.read()
    const current = doc.settings[id] ?? AgentSettings.parse({})
    this.write({ ...doc, settings: { ...doc.settings, [id]: { ...current, enabled } } })
  }

  async setEnvOverrides(id: string, env: Record<string, string>): Promise<void> {
    const parsed = AcpEnvMap.safeParse(env)
    if (!parsed.success)
      throw new AppError('acp_invalid_config', `Invalid environment: ${issuesText(parsed.error)}`)
    const current = this.read().settings[id] ?? AgentSettings.parse({})
    const { plain, secretNames } = await this.splitSecrets(
      id,
      'override',
      parsed.data,
      current.secretOverrides
    )
    const doc = this.read()
    const next = { ...current, envOverrides: plain, secretOverrides: secretNames }
    this.write({ ...doc, settings: { ...doc.settings, [id]: next } })
  }

  /** The custom agent's env and the user's overrides with secrets filled in, for launching only. */
  async resolvedEnv(id: string): Promise<{ env: Record<string, string>; overrides: Record<string, string> }> {
    const custom = this.read().custom.find((a) => a.id === id)
    const settings = this.read().settings[id]
    const env = { ...(custom?.env ?? {}) }
    for (const name of custom?.secretEnv ?? [])
      env[name] = (await this.backend.getSecret(secretKey(id, 'env', name))) ?? ''
    const overrides = { ...(settings?.envOverrides ?? {}) }
    for (const name of settings?.secretOverrides ?? [])
      overrides[name] = (await this.backend.getSecret(secretKey(id, 'override', name))) ?? ''
    return { env, overrides }
  }

  private requireStored(id: string): StoredCustomAgent {
    const found = this.read().custom.find((a) => a.id === id)
    if (!found) throw new AppError('acp_agent_not_found', `No custom agent with id "${id}"`)
    return found
  }

  /**
   * Moves secret-looking values into secret storage. The mask means "keep what is stored" (the
   * renderer only ever saw the mask); a secret that disappeared is deleted.
   */
  private async splitSecrets(
    id: string,
    kind: SecretKind,
    values: Record<string, string>,
    previousSecrets: string[]
  ): Promise<{ plain: Record<string, string>; secretNames: string[] }> {
    const plain: Record<string, string> = {}
    const secretNames: string[] = []
    for (const [name, value] of Object.entries(values)) {
      if (value === MASKED_SECRET) {
        if (!previousSecrets.includes(name))
          throw new AppError('acp_invalid_config', `"${name}" has no stored secret to keep`)
        secretNames.push(name)
      } else if (isSecretName(name) || previousSecrets.includes(name)) {
        await this.backend.setSecret(secretKey(id, kind, name), value)
        secretNames.push(name)
      } else {
        plain[name] = value
      }
    }
    for (const name of previousSecrets)
      if (!secretNames.includes(name)) await this.backend.deleteSecret(secretKey(id, kind, name))
    return { plain, secretNames }
  }

  private read(): AcpConfigDocument {
    this.cached ??= this.backend.getDocument(ACP_CONFIG_DOCUMENT, AcpConfigDocument, {
      version: 1,
      custom: [],
      settings: {}
    })
    return this.cached
  }

  private write(doc: AcpConfigDocument): void {
    this.cached = this.backend.setDocument(ACP_CONFIG_DOCUMENT, AcpConfigDocument, doc)
  }
}

function toPublic(stored: StoredCustomAgent): CustomAgentConfig {
  const env = { ...stored.env }
  for (const name of stored.secretEnv) env[name] = MASKED_SECRET
  return { ...stored, env, args: [...stored.args], secretEnv: [...stored.secretEnv] }
}

function uniqueId(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`
    if (!taken.has(candidate)) return candidate
  }
}
