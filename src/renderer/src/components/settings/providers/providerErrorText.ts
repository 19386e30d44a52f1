import { BridgeError } from '@renderer/api/bridge'
import { errorText } from '@renderer/lib/errorText'

/** The form field each provider setting is typed into, by the last part of main's zod path. */
const FIELD_LABELS: Record<string, string> = {
  name: 'settingsProviders.name',
  baseUrl: 'settingsProviders.apiUrl',
  apiKey: 'settingsProviders.apiKey',
  apiVersion: 'settingsProviders.azure.apiVersion',
  project: 'settingsProviders.vertex.project',
  location: 'settingsProviders.vertex.location',
  region: 'settingsProviders.bedrock.region',
  accessKeyId: 'settingsProviders.bedrock.accessKeyId',
  sessionToken: 'settingsProviders.bedrock.sessionToken',
  idleTimeoutSeconds: 'settingsProviders.idleTimeout'
}

interface Issue {
  path: string[]
  message: string
}

function issuesOf(error: unknown): Issue[] {
  if (!(error instanceof BridgeError) || error.code !== 'invalid_input') return []
  const issues = (error.details as { issues?: unknown } | undefined)?.issues
  if (!Array.isArray(issues)) return []
  return issues.filter(
    (i): i is Issue => !!i && Array.isArray((i as Issue).path) && typeof (i as Issue).message === 'string'
  )
}

/**
 * A provider form's error with the fields named as the form labels them ("Region: like
 * us-east-1") instead of main's schema paths ("settings.region: region: like us-east-1").
 * Anything that is not a field problem keeps its own text.
 */
export function providerErrorText(error: unknown, t: (key: string) => string): string {
  const issues = issuesOf(error)
  const named = issues.map((issue) => {
    const field = issue.path.at(-1) ?? ''
    const label = FIELD_LABELS[field]
    if (!label) return null
    // Main's messages for settings start with the field's own name ("region: like …").
    const message = issue.message.startsWith(`${field}: `)
      ? issue.message.slice(field.length + 2)
      : issue.message
    return `${t(label)}: ${message}`
  })
  if (issues.length === 0 || named.some((n) => n === null)) return errorText(error)
  return named.join('; ')
}
