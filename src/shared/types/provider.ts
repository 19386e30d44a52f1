import { z } from 'zod'

/** Which wire format / AI SDK provider a config speaks. */
export const ProviderKind = z.enum([
  'openai',
  'anthropic',
  'gemini',
  'openai-compatible',
  'ollama',
  'groq',
  'mistral',
  'xai',
  'deepseek',
  'azure',
  'vertex',
  'bedrock'
])
export type ProviderKind = z.infer<typeof ProviderKind>

export const ModelConfigSchema = z.object({
  id: z.string().min(1),
  name: z.string().min(1),
  contextLength: z.number().int().positive().default(128_000),
  maxOutputTokens: z.number().int().positive().default(8_192),
  vision: z.boolean().default(false),
  toolCalling: z.boolean().default(true),
  reasoning: z.boolean().default(false),
  enabled: z.boolean().default(true)
})
export type ModelConfig = z.infer<typeof ModelConfigSchema>
export type ModelConfigInput = z.input<typeof ModelConfigSchema>

const HttpUrl = z.url({ protocol: /^https?$/ })
const IdleTimeoutSeconds = z.number().int().min(1).max(3600)

/**
 * Settings some kinds need besides a base URL and a key (secrets are never here).
 * Azure: `apiVersion` (default `v1`), `deploymentUrls` (the older
 * `/openai/deployments/<deployment>/…?api-version=` URLs instead of `/openai/v1/…`).
 */
export const ProviderSettingsSchema = z
  .object({
    apiVersion: z
      .string()
      .regex(/^[A-Za-z0-9.-]{1,40}$/, 'apiVersion: like 2024-10-21 or v1')
      .optional(),
    deploymentUrls: z.boolean().optional(),
    /** Google Vertex: the project (default: the key file's) and location (default us-central1). */
    project: z
      .string()
      .regex(/^[a-z][a-z0-9-]{4,61}[a-z0-9]$/, 'project: a Google Cloud project id')
      .optional(),
    location: z
      .string()
      .regex(/^[a-z0-9-]{2,40}$/, 'location: like us-central1 or global')
      .optional(),
    /** Amazon Bedrock: the region and the access key id (the secret key is a secret). */
    region: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'region: like us-east-1')
      .optional(),
    accessKeyId: z
      .string()
      .regex(/^[A-Z0-9]{16,128}$/, 'accessKeyId: like AKIA… (letters and digits)')
      .optional()
  })
  .strict()
export type ProviderSettings = z.infer<typeof ProviderSettingsSchema>

/** A provider as stored in the config document. The API key is NOT here: it is a secret. */
export const StoredProviderSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'id: lowercase letters, digits, - and _'),
  kind: ProviderKind,
  name: z.string().min(1).max(100),
  baseUrl: HttpUrl,
  enabled: z.boolean().default(true),
  models: z.array(ModelConfigSchema).default([]),
  /** True for providers the user created; presets can be edited but are not "custom". */
  custom: z.boolean().default(false),
  /** Retries for rate_limit/server errors before the first token. */
  maxRetries: z.number().int().min(0).max(10).default(2),
  /**
   * A stream that delivers nothing for this long ends the turn (`no_response`). Unset: the
   * app's default (60 s); a slow local model may need more.
   */
  idleTimeoutSeconds: IdleTimeoutSeconds.optional(),
  settings: ProviderSettingsSchema.default({})
})
export type StoredProvider = z.infer<typeof StoredProviderSchema>

/** What leaves main: the key only ever as a mask like `sk-…abcd`. */
export const ProviderViewSchema = StoredProviderSchema.extend({
  hasApiKey: z.boolean(),
  apiKeyMasked: z.string().nullable(),
  requiresApiKey: z.boolean(),
  /** Amazon Bedrock: whether a session token is stored (never the token). */
  hasSessionToken: z.boolean().optional()
})
export type ProviderView = z.infer<typeof ProviderViewSchema>

export const ProviderAddInput = z
  .object({
    id: StoredProviderSchema.shape.id.optional(),
    /** Start from a preset (fills kind, name, baseUrl, models). */
    presetId: z.string().optional(),
    kind: ProviderKind.optional(),
    name: z.string().min(1).max(100).optional(),
    baseUrl: HttpUrl.optional(),
    apiKey: z.string().max(16_384).optional(),
    enabled: z.boolean().optional(),
    models: z.array(ModelConfigSchema).optional(),
    maxRetries: z.number().int().min(0).max(10).optional(),
    idleTimeoutSeconds: IdleTimeoutSeconds.optional(),
    settings: ProviderSettingsSchema.optional(),
    /** Amazon Bedrock: a temporary credential's session token (stored as a secret). */
    sessionToken: z.string().max(16_384).optional(),
    /** Ask the provider for its models right after adding. Default: yes unless `models` is given. */
    fetchModels: z.boolean().optional()
  })
  .strict()
  .refine(
    (v) =>
      v.presetId !== undefined || (v.kind !== undefined && v.baseUrl !== undefined && v.name !== undefined),
    {
      message: 'give a presetId, or kind, name and baseUrl'
    }
  )
export type ProviderAddInput = z.input<typeof ProviderAddInput>

export const ProviderPatch = z
  .object({
    name: z.string().min(1).max(100).optional(),
    baseUrl: HttpUrl.optional(),
    /** A new key; `null` deletes the stored key; omitted keeps it. */
    apiKey: z.string().max(16_384).nullable().optional(),
    enabled: z.boolean().optional(),
    models: z.array(ModelConfigSchema).optional(),
    maxRetries: z.number().int().min(0).max(10).optional(),
    /** Seconds; `null` returns to the app's default. */
    idleTimeoutSeconds: IdleTimeoutSeconds.nullable().optional(),
    settings: ProviderSettingsSchema.optional(),
    /** Like `apiKey`: a string sets, `null` deletes, omitted keeps. */
    sessionToken: z.string().max(16_384).nullable().optional()
  })
  .strict()
export type ProviderPatch = z.input<typeof ProviderPatch>

export const DefaultModelSchema = z
  .object({ providerId: z.string().min(1), modelId: z.string().min(1) })
  .nullable()
export type DefaultModel = z.infer<typeof DefaultModelSchema>

export const ProviderPresetSchema = z.object({
  presetId: z.string(),
  kind: ProviderKind,
  name: z.string(),
  baseUrl: z.string(),
  requiresApiKey: z.boolean(),
  models: z.array(ModelConfigSchema)
})
export type ProviderPreset = z.infer<typeof ProviderPresetSchema>

export const VerifyResultSchema = z.object({
  ok: z.boolean(),
  /** LLMErrorCode when it failed. */
  code: z.string().optional(),
  message: z.string(),
  latencyMs: z.number()
})
export type VerifyResult = z.infer<typeof VerifyResultSchema>

/** A model the provider API reported, merged with what we know about it. */
export const ListedModelSchema = ModelConfigSchema.extend({
  /** True when the metadata came from our table rather than defaults. */
  known: z.boolean()
})
export type ListedModel = z.infer<typeof ListedModelSchema>

/** What the automatic model fetch on add did; `null` when it was not attempted (no key yet). */
export const ModelFetchReportSchema = z
  .object({
    ok: z.boolean(),
    /** Models the provider listed. */
    listed: z.number().int(),
    /** Of the stored models, how many are enabled. */
    enabled: z.number().int(),
    /** Why the fetch failed (the provider is added anyway). */
    message: z.string().optional(),
    /** The failure's LLMErrorCode (`auth`, `network`, …): the notice says what to check. */
    code: z.string().optional()
  })
  .nullable()
export type ModelFetchReport = z.infer<typeof ModelFetchReportSchema>
