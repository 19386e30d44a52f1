/**
 * Turns a tool's (or an elicitation's) JSON Schema into form fields and the filled form back
 * into arguments. Every primitive kind has its widget: text (by `format`: email, url, date,
 * date-time), number, integer, boolean, a single choice (`enum`, `oneOf` of consts) and a
 * multiple choice (an array of such choices, shown as checkboxes); anything else is JSON.
 */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi' | 'json'

export interface SchemaField {
  name: string
  kind: FieldKind
  required: boolean
  title?: string
  description?: string
  options?: string[]
  /** Shown instead of the option value (`oneOf`/`anyOf` titles, legacy `enumNames`). */
  optionLabels?: Record<string, string>
  /** Of a string field: picks the input type. */
  format?: 'email' | 'uri' | 'date' | 'date-time'
  minimum?: number
  maximum?: number
  defaultValue?: unknown
}

export type RawValue = string | number | boolean | string[]

const FORMATS = new Set(['email', 'uri', 'date', 'date-time'])

/** The choices of a schema: `enum` (with `enumNames`), or `oneOf`/`anyOf` of string consts with titles. */
function choicesOf(schema: JsonSchema): Pick<SchemaField, 'options' | 'optionLabels'> | undefined {
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) {
    const options = schema.enum as string[]
    const names = Array.isArray(schema.enumNames) ? (schema.enumNames as unknown[]) : []
    const optionLabels = Object.fromEntries(
      options.flatMap((o, i) => (typeof names[i] === 'string' ? [[o, names[i] as string]] : []))
    )
    return { options, ...(Object.keys(optionLabels).length ? { optionLabels } : {}) }
  }
  const alternatives = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined
  if (!Array.isArray(alternatives) || alternatives.length === 0) return undefined
  if (!alternatives.every((a) => a && typeof a.const === 'string')) return undefined
  const options = alternatives.map((a) => a.const as string)
  const optionLabels = Object.fromEntries(
    alternatives.flatMap((a) => (typeof a.title === 'string' ? [[a.const as string, a.title]] : []))
  )
  return { options, ...(Object.keys(optionLabels).length ? { optionLabels } : {}) }
}

function numberOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined
}

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
      ...(typeof prop.title === 'string' ? { title: prop.title } : {}),
      description: typeof prop.description === 'string' ? prop.description : undefined,
      defaultValue: prop.default
    }
    const type = scalarType(prop)
    const choices = choicesOf(prop)
    if (choices && type !== 'array') return { ...base, kind: 'enum', ...choices }
    const itemChoices = type === 'array' ? choicesOf((prop.items ?? {}) as JsonSchema) : undefined
    if (itemChoices) return { ...base, kind: 'multi', ...itemChoices }
    const kind: FieldKind =
      type === 'string' || type === 'number' || type === 'integer' || type === 'boolean' ? type : 'json'
    const format = typeof prop.format === 'string' && FORMATS.has(prop.format) ? prop.format : undefined
    const minimum = numberOf(prop.minimum)
    const maximum = numberOf(prop.maximum)
    return {
      ...base,
      kind,
      ...(kind === 'string' && format ? { format: format as SchemaField['format'] } : {}),
      ...(minimum !== undefined ? { minimum } : {}),
      ...(maximum !== undefined ? { maximum } : {})
    }
  })
}

export function initialValues(fields: SchemaField[]): Record<string, RawValue> {
  const values: Record<string, RawValue> = {}
  for (const field of fields) {
    if (field.kind === 'boolean') values[field.name] = field.defaultValue === true
    else if (field.kind === 'multi')
      values[field.name] = Array.isArray(field.defaultValue)
        ? field.defaultValue.filter((v): v is string => field.options!.includes(v as string))
        : []
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
    if (field.kind === 'multi') {
      const chosen = Array.isArray(raw) ? raw : []
      if (chosen.length) args[field.name] = field.options!.filter((o) => chosen.includes(o))
      else if (field.required) errors[field.name] = 'required'
      continue
    }
    // Vue's v-model hands a number input's value over as a number once edited.
    const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : ''
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
    } else if (field.format === 'date-time' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text)) {
      // A datetime-local input has no zone; the schema's date-time wants RFC 3339.
      args[field.name] = new Date(text).toISOString()
    } else {
      // Keep the user's exact text (spaces included) for strings.
      args[field.name] = raw
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, args }
}
