import { z } from 'zod'
import { defineEvent } from '../define'
import { DefaultModelSchema, ProviderViewSchema } from '../../types/provider'

/** The provider list changed (added, edited, removed, key set). Keys are masked. */
export const providersListChanged = defineEvent({
  name: 'providers.list.changed',
  payload: z.object({ providers: z.array(ProviderViewSchema) })
})

export const providersDefaultChanged = defineEvent({
  name: 'providers.default.changed',
  payload: z.object({ defaultModel: DefaultModelSchema })
})
