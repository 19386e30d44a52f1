import { z } from 'zod'
import { defineRoute } from '../define'
import { NetworkSettingsPatch, NetworkSettingsView, ProxyTestResult } from '../../types/network'

export const networkGetSettings = defineRoute({
  name: 'network.getSettings',
  input: z.object({}).strict(),
  output: z.object({ settings: NetworkSettingsView })
})

/** Saves the proxy settings; `password` '' removes the stored one, absent keeps it. */
export const networkUpdateSettings = defineRoute({
  name: 'network.updateSettings',
  input: z.object({ patch: NetworkSettingsPatch }).strict(),
  output: z.object({ settings: NetworkSettingsView })
})

/** One request through the given (unsaved) settings; a failure says whether the proxy or the server failed. */
export const networkTestProxy = defineRoute({
  name: 'network.testProxy',
  input: z
    .object({
      patch: NetworkSettingsPatch.default({}),
      url: z
        .url({ protocol: /^https?$/ })
        .max(2048)
        .optional()
    })
    .strict(),
  output: z.object({ result: ProxyTestResult })
})
