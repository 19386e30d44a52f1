import { z } from 'zod'
import {
  DefaultModelSchema,
  StoredProviderSchema,
  type DefaultModel,
  type ProviderView,
  type StoredProvider
} from '@shared/types/provider'
import { kindRequiresApiKey } from './presets'
import { maskVertexSecret } from './vertex'

/** The part of ConfigPresenter the provider store needs. */
export interface ProviderConfigPort {
  getDocument<S extends z.ZodType>(key: string, schema: S, fallback: z.output<S>): z.output<S>
  setDocument<S extends z.ZodType>(key: string, schema: S, value: z.input<S>): z.output<S>
  getSecret(key: string): Promise<string | undefined>
  setSecret(key: string, value: string): Promise<void>
  deleteSecret(key: string): Promise<void>
}

const DOCUMENT_KEY = 'providers'
const DEFAULT_MODEL_KEY = 'providers.defaultModel'
const ProviderListSchema = z.array(StoredProviderSchema)

/** Provider configs in a config document; each API key under its own secret. */
export class ProviderStore {
  constructor(private readonly config: ProviderConfigPort) {}

  all(): StoredProvider[] {
    return this.config.getDocument(DOCUMENT_KEY, ProviderListSchema, [])
  }

  get(id: string): StoredProvider | undefined {
    return this.all().find((p) => p.id === id)
  }

  save(providers: StoredProvider[]): void {
    this.config.setDocument(DOCUMENT_KEY, ProviderListSchema, providers)
  }

  defaultModel(): DefaultModel {
    return this.config.getDocument(DEFAULT_MODEL_KEY, DefaultModelSchema, null)
  }

  setDefaultModel(value: DefaultModel): void {
    this.config.setDocument(DEFAULT_MODEL_KEY, DefaultModelSchema, value)
  }

  apiKey(id: string): Promise<string | undefined> {
    return this.config.getSecret(secretKey(id))
  }

  async setApiKey(id: string, key: string | null): Promise<void> {
    if (key === null || key === '') await this.config.deleteSecret(secretKey(id))
    else await this.config.setSecret(secretKey(id), key)
  }

  sessionToken(id: string): Promise<string | undefined> {
    return this.config.getSecret(secretKey(id, 'sessionToken'))
  }

  async setSessionToken(id: string, token: string | null): Promise<void> {
    if (token === null || token === '') await this.config.deleteSecret(secretKey(id, 'sessionToken'))
    else await this.config.setSecret(secretKey(id, 'sessionToken'), token)
  }

  async view(provider: StoredProvider): Promise<ProviderView> {
    const key = await this.apiKey(provider.id)
    const session =
      provider.kind === 'bedrock' ? { hasSessionToken: Boolean(await this.sessionToken(provider.id)) } : {}
    return {
      ...session,
      ...provider,
      hasApiKey: Boolean(key),
      apiKeyMasked: key ? (provider.kind === 'vertex' && maskVertexSecret(key)) || maskApiKey(key) : null,
      requiresApiKey: kindRequiresApiKey(provider.kind, provider.baseUrl)
    }
  }
}

function secretKey(providerId: string, name: 'apiKey' | 'sessionToken' = 'apiKey'): string {
  return `provider:${providerId}:${name}`
}

/** `sk-proj-abcdef…wxyz` → `sk-…wxyz`. Short keys show nothing of themselves. */
export function maskApiKey(key: string): string {
  const trimmed = key.trim()
  if (trimmed.length < 12) return '••••'
  return `${trimmed.slice(0, 3)}…${trimmed.slice(-4)}`
}
