/**
 * Elicitation forms use a flat JSON Schema of primitive fields (string, number, integer,
 * boolean, enums and string arrays). These helpers fill defaults and check an answer against
 * it, so a bad form answer is rejected before the server sees it.
 */
type FieldSchema = {
  type?: string
  enum?: unknown[]
  oneOf?: { const?: unknown }[]
  items?: { enum?: unknown[]; anyOf?: { const?: unknown }[] }
  default?: unknown
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  title?: string
}

type Content = Record<string, unknown>

function properties(schema: Record<string, unknown>): Record<string, FieldSchema> {
  const props = schema.properties
  return props && typeof props === 'object' ? (props as Record<string, FieldSchema>) : {}
}

export function applySchemaDefaults<T extends Content>(schema: Record<string, unknown>, content: T): T {
  const filled: Content = { ...content }
  for (const [name, field] of Object.entries(properties(schema))) {
    if (filled[name] === undefined && field.default !== undefined) filled[name] = field.default
  }
  return filled as T
}

function allowedValues(field: FieldSchema): unknown[] | undefined {
  if (field.enum) return field.enum
  if (field.oneOf) return field.oneOf.map((o) => o.const)
  return undefined
}

function checkField(name: string, field: FieldSchema, value: unknown): string | undefined {
  const label = field.title ?? name
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return `${label} must be text`
      const allowed = allowedValues(field)
      if (allowed && !allowed.includes(value)) return `${label} must be one of ${allowed.join(', ')}`
      if (field.minLength !== undefined && value.length < field.minLength) return `${label} is too short`
      if (field.maxLength !== undefined && value.length > field.maxLength) return `${label} is too long`
      return undefined
    }
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || Number.isNaN(value)) return `${label} must be a number`
      if (field.type === 'integer' && !Number.isInteger(value)) return `${label} must be a whole number`
      if (field.minimum !== undefined && value < field.minimum)
        return `${label} must be at least ${field.minimum}`
      if (field.maximum !== undefined && value > field.maximum)
        return `${label} must be at most ${field.maximum}`
      return undefined
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${label} must be true or false`
    case 'array': {
      if (!Array.isArray(value)) return `${label} must be a list`
      const allowed = field.items?.enum ?? field.items?.anyOf?.map((o) => o.const)
      const bad = allowed ? value.find((v) => !allowed.includes(v)) : undefined
      return bad === undefined ? undefined : `${label} has an invalid choice: ${String(bad)}`
    }
    default:
      return undefined
  }
}

/** The first problem with an accepted answer, or undefined when it fits the schema. */
export function checkElicitationContent(
  schema: Record<string, unknown>,
  content: Content
): string | undefined {
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : []
  for (const name of required) {
    if (content[name] === undefined || content[name] === '')
      return `${properties(schema)[name]?.title ?? name} is required`
  }
  const fields = properties(schema)
  for (const [name, value] of Object.entries(content)) {
    const field = fields[name]
    if (!field) return `${name} is not a field of this form`
    const problem = checkField(name, field, value)
    if (problem) return problem
  }
  return undefined
}
