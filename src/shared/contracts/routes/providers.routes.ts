import { z } from 'zod'
import { defineRoute } from '../define'
import {
  DefaultModelSchema,
  ListedModelSchema,
  ModelFetchReportSchema,
  ProviderAddInput,
  ProviderPatch,
  ProviderPresetSchema,
  ProviderViewSchema,
  VerifyResultSchema
} from '../../types/provider'

const ProviderId = z.string().min(1).max(64)

export const providersPresets = defineRoute({
  name: 'providers.presets',
  input: z.object({}).strict(),
  output: z.object({ presets: z.array(ProviderPresetSchema) })
})

export const providersList = defineRoute({
  name: 'providers.list',
  input: z.object({}).strict(),
  output: z.object({ providers: z.array(ProviderViewSchema), defaultModel: DefaultModelSchema })
})

export const providersAdd = defineRoute({
  name: 'providers.add',
  input: z.object({ provider: ProviderAddInput }).strict(),
  /** `modelFetch`: the automatic model list fetch (see docs/providers.md). */
  output: z.object({ provider: ProviderViewSchema, modelFetch: ModelFetchReportSchema.optional() })
})

export const providersUpdate = defineRoute({
  name: 'providers.update',
  input: z.object({ id: ProviderId, patch: ProviderPatch }).strict(),
  output: z.object({ provider: ProviderViewSchema })
})

export const providersRemove = defineRoute({
  name: 'providers.remove',
  input: z.object({ id: ProviderId }).strict(),
  output: z.object({ removed: z.boolean() })
})

/** Checks a key with the cheapest call (the model list). `apiKey`/`baseUrl` test unsaved values. */
export const providersVerify = defineRoute({
  name: 'providers.verify',
  input: z
    .object({
      id: ProviderId,
      apiKey: z.string().max(4096).optional(),
      baseUrl: z.url({ protocol: /^https?$/ }).optional()
    })
    .strict(),
  output: VerifyResultSchema
})

export const providersListModels = defineRoute({
  name: 'providers.listModels',
  input: z.object({ id: ProviderId }).strict(),
  output: z.object({ models: z.array(ListedModelSchema) })
})

export const providersSetDefault = defineRoute({
  name: 'providers.setDefault',
  input: z.object({ defaultModel: DefaultModelSchema }).strict(),
  output: z.object({ defaultModel: DefaultModelSchema })
})
