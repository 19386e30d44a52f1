import type { PermissionRequest } from '@shared/types/permission'
import { reasonOf } from './reasonText'

/**
 * The request for reaching one host over the network (web_fetch): asked per host in every
 * mode but full access; "Always allow" stores a `network` rule for exactly that host (a wider
 * `*.domain` rule is the user's to write).
 */
export function networkRequestFor(input: {
  tool: string
  server: string
  sessionId: string
  host: string
}): PermissionRequest {
  const host = input.host.toLowerCase()
  const reason = reasonOf('web_fetch_domain', { host })
  return {
    type: 'network',
    tool: input.tool,
    server: input.server,
    sessionId: input.sessionId,
    risk: 'medium',
    reason: reason.text,
    reasonCodes: [reason.code],
    host,
    suggestedRule: { kind: 'network', pattern: host, effect: 'allow' }
  }
}
