import type { z } from 'zod'
import { AppError } from '@shared/errors'
import { providersDefaultChanged, providersListChanged } from '@shared/contracts/events/providers.events'
import { LLMRequestSchema, type LLMCoreStreamEvent, type LLMRequest } from '@shared/types/llm'
import {
  ProviderAddInput,
  ProviderPatch,
  StoredProviderSchema,
  type DefaultModel,
  type ListedModel,
  type ModelFetchReport,
  type ProviderPreset,
  type ProviderView,
  type StoredProvider,
  type VerifyResult
} from '@shared/types/provider'
import type { EventSink } from '../../bridge/events'
import { PROVIDER_PRESETS, findPreset, kindRequiresApiKey } from './presets'
import { ProviderStore, type ProviderConfigPort } from './providerStore'
import { fetchProviderModels, listsRequestModelIds, mergeModelMetadata } from './modelListing'
import { mergeFetchedModels, withDefaultEnablement } from './modelDefaults'
import { classifyError } from './errors'
import { parseVertexSecret } from './vertex'
import { createLanguageModel, isGeminiWire, reasoningOptions } from './modelFactory'
import { toModelPrompt, toToolSet } from './messageMapper'
import { maxImagesPerRequest } from './imageLimits'
import { DEFAULT_RETRY, streamWithRetry, type RetryPolicy } from './coreStream'
import { generateImages, type GeneratedImageData, type ImageGenerationRequest } from './imageGeneration'
import { APP_WEB_SEARCH_TOOL, nativeSearchKind, nativeSearchTools } from './nativeSearch'

export { maskApiKey } from './providerStore'

/** The automatic fetch on add must not keep the add dialog waiting long. */
const AUTO_FETCH_TIMEOUT_MS = 10_000

export interface LlmProviderDeps {
  config: ProviderConfigPort
  events: EventSink
  /** Backoff and idle timing; the retry count comes from each provider's `maxRetries`. */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>>
  /** The app's one network door (proxy settings); plain fetch when absent. */
  fetch?: typeof globalThis.fetch
}

/**
 * Model providers: their configs and keys, model lists, key checks, and `coreStream`, the
 * one way the app talks to a model.
 */
export class LlmProviderPresenter {
  private readonly store: ProviderStore

  constructor(private readonly deps: LlmProviderDeps) {
    this.store = new ProviderStore(deps.config)
  }

  presets(): readonly ProviderPreset[] {
    return PROVIDER_PRESETS
  }

  listProviders(): Promise<ProviderView[]> {
    return Promise.all(this.store.all().map((p) => this.store.view(p)))
  }

  getDefaultModel(): DefaultModel {
    return this.store.defaultModel()
  }

  /** Whether the model's provider has its own web search the app can use (nativeSearch.ts). */
  hasNativeSearch(providerId: string, modelId: string): boolean {
    const provider = this.store.get(providerId)
    return Boolean(provider && nativeSearchKind(provider, modelId))
  }

  /** A provider's configured models, read without its secrets (every turn asks); undefined when unknown. */
  modelsOf(providerId: string): StoredProvider['models'] | undefined {
    return this.store.get(providerId)?.models
  }

  async addProvider(rawInput: ProviderAddInput): Promise<ProviderView> {
    return (await this.addProviderWithModels(rawInput)).provider
  }

  /**
   * Adds a provider, then asks it for its models (unless models were given or no key is set
   * where one is needed). A failed fetch does not fail the add: it is reported.
   */
  async addProviderWithModels(
    rawInput: ProviderAddInput
  ): Promise<{ provider: ProviderView; modelFetch: ModelFetchReport }> {
    const input = ProviderAddInput.parse(rawInput)
    const added = await this.insertProvider(input)
    const wanted = input.fetchModels ?? (input.models === undefined && listsRequestModelIds(added.kind))
    if (!wanted || (!added.hasApiKey && added.requiresApiKey)) return { provider: added, modelFetch: null }
    return this.fetchModelsOnAdd(added)
  }

  private async fetchModelsOnAdd(
    added: ProviderView
  ): Promise<{ provider: ProviderView; modelFetch: ModelFetchReport }> {
    let listed: ListedModel[]
    try {
      listed = await this.listModels(added.id, AbortSignal.timeout(AUTO_FETCH_TIMEOUT_MS))
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      const code =
        error instanceof AppError ? (error.details as { code?: string } | undefined)?.code : undefined
      const enabled = added.models.filter((m) => m.enabled).length
      return {
        provider: added,
        modelFetch: { ok: false, listed: 0, enabled, message, ...(code ? { code } : {}) }
      }
    }
    const models = mergeFetchedModels(listed, added.models)
    const provider = await this.updateProvider(added.id, { models })
    const enabled = models.filter((m) => m.enabled).length
    return { provider, modelFetch: { ok: true, listed: listed.length, enabled } }
  }

  private async insertProvider(input: z.output<typeof ProviderAddInput>): Promise<ProviderView> {
    const preset = input.presetId !== undefined ? findPreset(input.presetId) : undefined
    if (input.presetId !== undefined && !preset)
      throw new AppError('not_found', `No provider preset "${input.presetId}"`)
    const existing = this.store.all()
    const id = input.id ?? uniqueId(preset?.presetId ?? slug(input.name ?? 'provider'), existing)
    if (existing.some((p) => p.id === id))
      throw new AppError('conflict', `A provider with id "${id}" already exists`)
    const provider = StoredProviderSchema.parse({
      id,
      kind: input.kind ?? preset?.kind,
      name: input.name ?? preset?.name,
      baseUrl: input.baseUrl ?? preset?.baseUrl,
      enabled: input.enabled ?? true,
      models: input.models ?? preset?.models ?? [],
      custom: !preset || preset.presetId === 'custom',
      maxRetries: input.maxRetries ?? DEFAULT_RETRY.maxRetries,
      idleTimeoutSeconds: input.idleTimeoutSeconds,
      settings: input.settings ?? {}
    })
    checkSecret(provider.kind, input.apiKey)
    this.store.save([...existing, provider])
    if (input.apiKey) await this.store.setApiKey(id, input.apiKey)
    if (input.sessionToken) await this.store.setSessionToken(id, input.sessionToken)
    await this.emitList()
    return this.store.view(provider)
  }

  async updateProvider(id: string, rawPatch: ProviderPatch): Promise<ProviderView> {
    const patch = ProviderPatch.parse(rawPatch)
    const current = this.requireProvider(id)
    const { apiKey, sessionToken, idleTimeoutSeconds, ...fields } = patch
    const merged: Record<string, unknown> = { ...current, ...stripUndefined(fields) }
    if (idleTimeoutSeconds === null) delete merged.idleTimeoutSeconds
    else if (idleTimeoutSeconds !== undefined) merged.idleTimeoutSeconds = idleTimeoutSeconds
    const updated = StoredProviderSchema.parse(merged)
    checkSecret(updated.kind, apiKey)
    this.store.save(this.store.all().map((p) => (p.id === id ? updated : p)))
    if (apiKey !== undefined) await this.store.setApiKey(id, apiKey)
    if (sessionToken !== undefined) await this.store.setSessionToken(id, sessionToken)
    const defaultModel = this.getDefaultModel()
    if (defaultModel?.providerId === id && !updated.models.some((m) => m.id === defaultModel.modelId)) {
      this.setDefaultModel(null)
    }
    await this.emitList()
    return this.store.view(updated)
  }

  async removeProvider(id: string): Promise<boolean> {
    const all = this.store.all()
    if (!all.some((p) => p.id === id)) return false
    this.store.save(all.filter((p) => p.id !== id))
    await this.store.setApiKey(id, null)
    await this.store.setSessionToken(id, null)
    if (this.getDefaultModel()?.providerId === id) this.setDefaultModel(null)
    await this.emitList()
    return true
  }

  setDefaultModel(value: DefaultModel): DefaultModel {
    if (value) {
      const provider = this.requireProvider(value.providerId)
      if (!provider.models.some((m) => m.id === value.modelId)) {
        throw new AppError('not_found', `Provider "${provider.name}" has no model "${value.modelId}"`)
      }
    }
    this.store.setDefaultModel(value)
    this.deps.events.emit(providersDefaultChanged, { defaultModel: value })
    return value
  }

  /** Model list from the provider's API, merged with known metadata. */
  async listModels(id: string, signal?: AbortSignal): Promise<ListedModel[]> {
    const provider = this.requireProvider(id)
    try {
      const raw = await fetchProviderModels(provider, {
        apiKey: await this.store.apiKey(id),
        sessionToken: await this.store.sessionToken(id),
        signal,
        fetch: this.deps.fetch
      })
      return withDefaultEnablement(mergeModelMetadata(raw, provider.models), provider.models)
    } catch (error) {
      const failure = classifyError(error)
      throw new AppError(`provider_${failure.code}`, failure.message, {
        code: failure.code,
        status: failure.status
      })
    }
  }

  /** Checks a key (saved, or given to test before saving) with the model list: it costs no tokens. */
  async verify(input: { id: string; apiKey?: string; baseUrl?: string }): Promise<VerifyResult> {
    const provider = this.requireProvider(input.id)
    const apiKey = input.apiKey ?? (await this.store.apiKey(input.id))
    const baseUrl = input.baseUrl ?? provider.baseUrl
    const started = Date.now()
    if (!apiKey && kindRequiresApiKey(provider.kind, baseUrl)) {
      return { ok: false, code: 'auth', message: 'No API key is set for this provider', latencyMs: 0 }
    }
    try {
      const models = await fetchProviderModels(
        { ...provider, baseUrl },
        { apiKey, sessionToken: await this.store.sessionToken(input.id), fetch: this.deps.fetch }
      )
      return {
        ok: true,
        message: `Connected: ${models.length} models available`,
        latencyMs: Date.now() - started
      }
    } catch (error) {
      const failure = classifyError(error)
      return { ok: false, code: failure.code, message: failure.message, latencyMs: Date.now() - started }
    }
  }

  /**
   * Streams one model reply as LLMCoreStreamEvents. Never throws: bad requests, missing
   * providers and wire failures all end as `error` + `stop('error')`.
   */
  async *coreStream(request: LLMRequest, signal: AbortSignal): AsyncGenerator<LLMCoreStreamEvent> {
    let prepared: Awaited<ReturnType<LlmProviderPresenter['prepare']>>
    try {
      prepared = await this.prepare(request)
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      const code = error instanceof AppError && error.code === 'auth' ? 'auth' : 'invalid_request'
      yield {
        type: 'error',
        code,
        error_message: message,
        category: code === 'auth' ? 'auth' : 'bad_request'
      }
      yield { type: 'stop', stop_reason: 'error' }
      return
    }
    yield* streamWithRetry(prepared.input, signal, prepared.policy)
  }

  /** Images for a prompt from an OpenAI images model or a Gemini image model (see imageGeneration.ts). */
  async generateImages(request: ImageGenerationRequest, signal?: AbortSignal): Promise<GeneratedImageData[]> {
    const provider = this.requireProvider(request.providerId)
    if (!provider.enabled)
      throw new AppError('image_model_unavailable', `Provider "${provider.name}" is disabled`)
    return generateImages(provider, await this.store.apiKey(provider.id), request, signal, this.deps.fetch)
  }

  private async prepare(raw: LLMRequest) {
    const parsed = LLMRequestSchema.safeParse(raw)
    if (!parsed.success) {
      throw new AppError(
        'invalid_request',
        `Invalid request: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
      )
    }
    const request = parsed.data
    const provider = this.requireProvider(request.providerId)
    if (!provider.enabled) throw new AppError('invalid_request', `Provider "${provider.name}" is disabled`)
    const apiKey = await this.store.apiKey(provider.id)
    if (!apiKey && kindRequiresApiKey(provider.kind, provider.baseUrl)) {
      throw new AppError('auth', `No API key is set for ${provider.name}`)
    }
    const modelConfig = provider.models.find((m) => m.id === request.modelId)
    const policy: RetryPolicy = {
      ...DEFAULT_RETRY,
      ...this.deps.retry,
      maxRetries: request.maxRetries ?? provider.maxRetries
    }
    if (provider.idleTimeoutSeconds !== undefined) policy.idleTimeoutMs = provider.idleTimeoutSeconds * 1000
    const nativeSearch = request.nativeWebSearch ? nativeSearchKind(provider, request.modelId) : null
    // With the provider's search on, the app's web_search is never sent beside it.
    const functionTools = nativeSearch
      ? request.tools?.filter((t) => t.name !== APP_WEB_SEARCH_TOOL)
      : request.tools
    const tools = nativeSearch
      ? { ...toToolSet(functionTools), ...nativeSearchTools(nativeSearch) }
      : toToolSet(functionTools)
    return {
      policy,
      input: {
        model: createLanguageModel(
          provider,
          request.modelId,
          apiKey,
          await this.store.sessionToken(provider.id),
          this.deps.fetch,
          nativeSearch
        ),
        // Anthropic and Gemini carry images inside tool results; chat completions cannot.
        ...toModelPrompt(request.messages, {
          imagesInToolResults: provider.kind === 'anthropic' || isGeminiWire(provider.kind),
          maxImages: maxImagesPerRequest(provider.kind)
        }),
        tools: tools && Object.keys(tools).length ? tools : undefined,
        temperature: request.temperature,
        topP: request.topP,
        // Without a limit the SDK guesses one for models it does not know (Anthropic: 4096).
        maxTokens: request.maxTokens ?? modelConfig?.maxOutputTokens,
        providerOptions: reasoningOptions(provider, modelConfig, request.reasoning)
      }
    }
  }

  private requireProvider(id: string): StoredProvider {
    const provider = this.store.get(id)
    if (!provider) throw new AppError('not_found', `No provider "${id}"`)
    return provider
  }

  private async emitList(): Promise<void> {
    this.deps.events.emit(providersListChanged, { providers: await this.listProviders() })
  }
}

/** A Vertex service-account key that is not one is refused before it is stored. */
function checkSecret(kind: StoredProvider['kind'], secret: string | null | undefined): void {
  if (kind !== 'vertex' || !secret) return
  try {
    parseVertexSecret(secret)
  } catch (error) {
    throw new AppError('invalid_input', (error as Error).message)
  }
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'provider'
  )
}

function uniqueId(base: string, existing: StoredProvider[]): string {
  const taken = new Set(existing.map((p) => p.id))
  if (!taken.has(base)) return base
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
}
