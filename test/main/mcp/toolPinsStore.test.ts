import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import {
  MCP_TOOL_PINS_DOCUMENT,
  ToolPins,
  canonicalJson
} from '../../../src/main/presenter/mcpPresenter/toolPins'
import { createHarness, type Harness } from './harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

/** Tools as a server's JSON gives them: parsed, so `__proto__` is an own key. */
const listed = (json: string) => JSON.parse(json) as Tool[]

describe('ToolPins on the real config store', () => {
  it('pins tools named __proto__ and constructor like any other, across a restart of the store', () => {
    h = createHarness()
    const tools = listed(
      '[{"name":"__proto__","description":"a","inputSchema":{"type":"object","__proto__":{"x":1}}},' +
        '{"name":"constructor","description":"b","inputSchema":{"type":"object"}}]'
    )
    const events: number[] = []
    new ToolPins(h.config, (_id, pending) => events.push(pending)).observe('s', tools)
    const reopened = new ToolPins(h.config, () => {})
    expect(reopened.isPinned('s')).toBe(true)
    expect([...reopened.held('s', listed(JSON.stringify(tools)))]).toEqual([])

    const changed = listed(
      '[{"name":"__proto__","description":"a","inputSchema":{"type":"object","__proto__":{"x":2}}},' +
        '{"name":"constructor","description":"b","inputSchema":{"type":"object"}}]'
    )
    expect([...reopened.held('s', changed)]).toEqual([['__proto__', 'changed']])
    expect(Object.prototype).not.toHaveProperty('x')
    // Pinning holds nothing, so the card is not told anything.
    expect(events).toEqual([])
  })

  it('the same definition with its keys in another order is unchanged; any value change is not', () => {
    h = createHarness()
    const pins = new ToolPins(h.config, () => {})
    pins.observe(
      's',
      listed(
        '[{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}]'
      )
    )
    const reordered = listed(
      '[{"inputSchema":{"properties":{"a":{"type":"string"}},"type":"object"},"description":"d","name":"t"}]'
    )
    expect(pins.held('s', reordered).size).toBe(0)
    for (const variant of [
      '{"name":"t","description":"d ","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}',
      '{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"a":{"type":"number"}}}}',
      '{"name":"t","description":"d","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}},"annotations":{"readOnlyHint":true}}',
      '{"name":"t","title":"T","description":"d","inputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}'
    ])
      expect([...pins.held('s', listed(`[${variant}]`))]).toEqual([['t', 'changed']])
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[{"c":2,"d":1}]}')
  })

  it('stored pins that do not parse trust nothing on sight: every listed tool waits for review', () => {
    h = createHarness()
    h.config.setDocument(MCP_TOOL_PINS_DOCUMENT, z.unknown(), { version: 2, servers: 'lost' })
    const logged: string[] = []
    const pins = new ToolPins(
      h.config,
      () => {},
      (message) => logged.push(message)
    )
    const tools = listed('[{"name":"t","description":"d","inputSchema":{"type":"object"}}]')
    pins.observe('s', tools)
    expect([...pins.held('s', tools)]).toEqual([['t', 'new']])
    expect(logged.join()).toMatch(/unreadable/)
    // Accepting it writes a readable document again.
    pins.accept('s', tools, [{ name: 't', hash: pins.changes('s', tools)[0].hash }])
    expect(new ToolPins(h.config, () => {}).held('s', tools).size).toBe(0)
  })

  it('a server changing 200 tools to 50 kB descriptions gets a change list of about 1 MB, each cut saying so', () => {
    h = createHarness()
    const pins = new ToolPins(h.config, () => {})
    const tool = (i: number, description: string) => ({
      name: `t${i}`,
      description,
      inputSchema: { type: 'object' }
    })
    pins.observe('s', Array.from({ length: 200 }, (_, i) => tool(i, 'short')) as Tool[])
    const huge = Array.from({ length: 200 }, (_, i) => tool(i, 'x'.repeat(50_000))) as Tool[]
    const changes = pins.changes('s', huge)
    expect(changes).toHaveLength(200)
    const texts = changes.flatMap((c) => c.fields.flatMap((f) => [f.before, f.after]))
    expect(texts.reduce((sum, text) => sum + text.length, 0)).toBeLessThan(1_100_000)
    expect(changes[0].fields[0].after).toMatch(/^x{20000}\n… \(30000 more characters\)$/)
    expect(changes.at(-1)!.fields[0].after).toBe('\n… (50000 more characters)')
  })
})
