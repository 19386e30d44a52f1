import { z } from 'zod'
import { defineEvent } from '../define'
import { NetworkSettingsView } from '../../types/network'

/** The proxy settings changed (never carries the password). The desktop app re-applies them to Chromium. */
export const networkSettingsChanged = defineEvent({
  name: 'network.settings.changed',
  payload: z.object({ settings: NetworkSettingsView })
})
