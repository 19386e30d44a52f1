/**
 * Turns a tool's JSON Schema into form fields and the filled form back into arguments. Only
 * flat scalar properties get their own widget; anything nested is edited as JSON.
 */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json'

export interface SchemaField {
  name: string
  kind: FieldKind
  required: boolean
  description?: string
  options?: string[]
  defaultValue?: unknown
}

export type RawValue = string | boolean

type JsonSchema = Record<string, unknown>

function scalarType(schema: JsonSchema): string | undefined {
  const type = schema.type
  if (typeof type === 'string') return type
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined
  return undefined
}

export function fieldsOf(schema: JsonSchema): SchemaField[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
  return Object.entries(properties).map(([name, prop]) => {
    const base = {
      name,
      required: required.has(name),
      description: typeof prop.description === 'string' ? prop.description : undefined,
      defaultValue: prop.default
    }
    if (Array.isArray(prop.enum) && prop.enum.every((v) => typeof v === 'string')) {
      return { ...base, kind: 'enum', options: prop.enum as string[] }
    }
    const type = scalarType(prop)
    const kind: FieldKind =
      type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' ? type : 'json'
    return { ...base, kind }
  })
}

export function initialValues(fields: SchemaField[]): Record<string, RawValue> {
  const values: Record<string, RawValue> = {}
  for (const field of fields) {
    if (field.kind === 'boolean') values[field.name] = field.defaultValue === true
    else if (field.defaultValue === undefined) values[field.name] = ''
    else
      values[field.name] =
        field.kind === 'json' ? JSON.stringify(field.defaultValue, null, 2) : String(field.defaultValue)
  }
  return values
}

export type BuildResult =
  | { ok: true; args: Record<string, unknown> }
  | { ok: false; errors: Record<string, 'required' | 'number' | 'integer' | 'json'> }

/** Empty optional fields are left out, so the server applies its own defaults. */
export function buildArgs(fields: SchemaField[], values: Record<string, RawValue>): BuildResult {
  const args: Record<string, unknown> = {}
  const errors: Record<string, 'required' | 'number' | 'integer' | 'json'> = {}
  for (const field of fields) {
    const raw = values[field.name]
    if (field.kind === 'boolean') {
      args[field.name] = raw === true
      continue
    }
    const text = typeof raw === 'string' ? raw.trim() : ''
    if (text === '') {
      if (field.required) errors[field.name] = 'required'
      continue
    }
    if (field.kind === 'number' || field.kind === 'integer') {
      const n = Number(text)
      if (!Number.isFinite(n)) errors[field.name] = 'number'
      else if (field.kind === 'integer' && !Number.isInteger(n)) errors[field.name] = 'integer'
      else args[field.name] = n
    } else if (field.kind === 'json') {
      try {
        args[field.name] = JSON.parse(text)
      } catch {
        errors[field.name] = 'json'
      }
    } else {
      // Keep the user's exact text (spaces included) for strings.
      args[field.name] = raw
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, args }
}
