import { describe, expect, it } from 'vitest'
import { buildArgs, fieldsOf, initialValues } from '@renderer/components/settings/mcp/schemaForm'

const schema = {
  type: 'object',
  properties: {
    message: { type: 'string', description: 'what to say' },
    count: { type: 'integer', default: 2 },
    ratio: { type: ['number', 'null'] },
    loud: { type: 'boolean' },
    mode: { type: 'string', enum: ['a', 'b'] },
    options: { type: 'object', properties: { x: { type: 'number' } } }
  },
  required: ['message', 'mode']
}

describe('schema form', () => {
  it('maps JSON Schema properties to widgets, with required flags and defaults', () => {
    const fields = fieldsOf(schema)
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['message', 'string', true],
      ['count', 'integer', false],
      ['ratio', 'number', false],
      ['loud', 'boolean', false],
      ['mode', 'enum', true],
      ['options', 'json', false]
    ])
    expect(fields.find((f) => f.name === 'mode')?.options).toEqual(['a', 'b'])
    expect(initialValues(fields)).toEqual({
      message: '',
      count: '2',
      ratio: '',
      loud: false,
      mode: '',
      options: ''
    })
  })

  it('builds typed arguments and leaves empty optional fields out', () => {
    const fields = fieldsOf(schema)
    const result = buildArgs(fields, {
      message: ' hi ',
      count: '3',
      ratio: '',
      loud: true,
      mode: 'b',
      options: '{"x": 1}'
    })
    expect(result).toEqual({
      ok: true,
      args: { message: ' hi ', count: 3, loud: true, mode: 'b', options: { x: 1 } }
    })
  })

  it('reports every bad field instead of sending a broken call', () => {
    const fields = fieldsOf(schema)
    const result = buildArgs(fields, {
      message: '',
      count: '2.5',
      ratio: 'abc',
      loud: false,
      mode: '',
      options: '{bad'
    })
    expect(result).toEqual({
      ok: false,
      errors: { message: 'required', count: 'integer', ratio: 'number', mode: 'required', options: 'json' }
    })
  })

  it('handles a schema without properties', () => {
    expect(fieldsOf({ type: 'object' })).toEqual([])
    expect(buildArgs([], {})).toEqual({ ok: true, args: {} })
  })
})
