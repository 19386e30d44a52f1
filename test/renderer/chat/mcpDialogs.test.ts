import { afterEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import McpRequestsHost from '@renderer/components/dialogs/McpRequestsHost.vue'
import { createAppI18n } from '@renderer/i18n'
import { useRealBridge } from '../helpers/realBridge'
import { eventually } from '../settings/helpers'

const TEST_SERVER = join(import.meta.dirname, '..', '..', 'fixtures', 'mcp', 'testServer.mjs')

let bridge: ReturnType<typeof useRealBridge> | undefined
afterEach(async () => {
  await bridge?.dispose()
  bridge = undefined
})

function textOf(result: { content: ReadonlyArray<{ type: string }> }): string {
  return result.content.map((c) => ('text' in c && typeof c.text === 'string' ? c.text : '')).join('')
}

/** A real stdio MCP server (test/fixtures/mcp/testServer.mjs) asks for a form during a call. */
async function setup() {
  bridge = useRealBridge()
  setActivePinia(createPinia())
  const wrapper = mount(McpRequestsHost, {
    global: { plugins: [createAppI18n('en-US')] },
    attachTo: document.body
  })
  await bridge.presenters.mcp.addServer({
    id: 't',
    name: 'Test server',
    type: 'stdio',
    command: process.execPath,
    args: [TEST_SERVER],
    enabled: false
  })
  await bridge.presenters.mcp.startServer('t')
  return wrapper
}

describe('MCP elicitation dialog', () => {
  it('renders the requested form with defaults and sends the accepted values', async () => {
    const wrapper = await setup()
    const call = bridge!.presenters.mcp.callTool('t', 'ask_user', {})
    await eventually(() => wrapper.find('[data-testid="elicitation-dialog"]').exists())
    expect(wrapper.get('[data-testid="elicitation-message"]').text()).toBe('Who are you?')
    expect((wrapper.get('[data-testid="param-color"]').element as HTMLSelectElement).value).toBe('blue')
    expect((wrapper.get('[data-testid="param-age"]').element as HTMLInputElement).value).toBe('30')

    // The required name is missing: the form says so and nothing is sent.
    await wrapper.get('[data-testid="elicitation-accept"]').trigger('click')
    expect(wrapper.get('[data-testid="elicitation-dialog"] [role="alert"]').text()).toBe('Required.')
    await wrapper.get('[data-testid="param-name"]').setValue('Ada')
    await wrapper.get('[data-testid="elicitation-accept"]').trigger('click')
    expect(JSON.parse(textOf(await call))).toEqual({
      action: 'accept',
      content: { name: 'Ada', color: 'blue', age: 30 }
    })
    await eventually(() => !wrapper.find('[data-testid="elicitation-dialog"]').exists())
    wrapper.unmount()
  }, 30_000)

  it('has a widget for every primitive kind, a multi-select as checkboxes', async () => {
    const wrapper = await setup()
    const call = bridge!.presenters.mcp.callTool('t', 'ask_everything', {})
    await eventually(() => wrapper.find('[data-testid="elicitation-dialog"]').exists())
    const input = (id: string) => wrapper.get(`[data-testid="param-${id}"]`).element as HTMLInputElement
    expect(input('email').type).toBe('email')
    expect(input('day').type).toBe('date')
    expect([input('score').type, input('score').min, input('score').max]).toEqual(['number', '0', '10'])
    expect(input('count').step).toBe('1')
    expect(input('agree').type).toBe('checkbox')
    const sizes = wrapper.findAll('[data-testid="param-size"] option').map((o) => o.text())
    expect(sizes).toEqual(['—', 'Small', 'Large'])
    expect(wrapper.get('[data-testid="param-toppings"]').element.tagName).toBe('FIELDSET')
    expect(wrapper.get('[data-testid="param-sides"]').text()).toContain('French fries')

    // Toppings is required: nothing ticked, nothing sent.
    await wrapper.get('[data-testid="param-email"]').setValue('ada@example.com')
    await wrapper.get('[data-testid="elicitation-accept"]').trigger('click')
    expect(wrapper.get('[data-testid="elicitation-dialog"] [role="alert"]').text()).toBe('Required.')
    await wrapper.get('[data-testid="param-day"]').setValue('2026-12-03')
    await wrapper.get('[data-testid="param-score"]').setValue('7.5')
    await wrapper.get('[data-testid="param-count"]').setValue('3')
    await wrapper.get('[data-testid="param-agree"]').setValue(true)
    await wrapper.get('[data-testid="param-size"]').setValue('l')
    await wrapper.get('[data-testid="param-toppings-olives"]').setValue(true)
    await wrapper.get('[data-testid="param-toppings-cheese"]').setValue(true)
    await wrapper.get('[data-testid="param-sides-salad"]').setValue(true)
    await wrapper.get('[data-testid="elicitation-accept"]').trigger('click')
    expect(JSON.parse(textOf(await call))).toEqual({
      action: 'accept',
      content: {
        email: 'ada@example.com',
        day: '2026-12-03',
        score: 7.5,
        count: 3,
        agree: true,
        size: 'l',
        toppings: ['cheese', 'olives'],
        sides: ['salad']
      }
    })
    wrapper.unmount()
  }, 30_000)

  it('declines', async () => {
    const wrapper = await setup()
    const call = bridge!.presenters.mcp.callTool('t', 'ask_user', {})
    await eventually(() => wrapper.find('[data-testid="elicitation-dialog"]').exists())
    await wrapper.get('[data-testid="elicitation-decline"]').trigger('click')
    expect(JSON.parse(textOf(await call))).toEqual({ action: 'decline' })
    wrapper.unmount()
  }, 30_000)

  it('cancels', async () => {
    const wrapper = await setup()
    const call = bridge!.presenters.mcp.callTool('t', 'ask_user', {})
    await eventually(() => wrapper.find('[data-testid="elicitation-dialog"]').exists())
    await wrapper.get('[data-testid="elicitation-cancel"]').trigger('click')
    expect(JSON.parse(textOf(await call))).toEqual({ action: 'cancel' })
    await eventually(() => !wrapper.find('[data-testid="elicitation-dialog"]').exists())
    wrapper.unmount()
  }, 30_000)
})

describe('MCP sampling dialog', () => {
  it("shows the server's messages and sends a rejection back", async () => {
    const wrapper = await setup()
    const call = bridge!.presenters.mcp.callTool('t', 'sample', { prompt: 'Summarize the moon' })
    await eventually(() => wrapper.find('[data-testid="sampling-dialog"]').exists())
    expect(wrapper.get('[data-testid="sampling-messages"]').text()).toContain('Summarize the moon')
    expect(wrapper.text()).toContain('Answer up to 50 tokens')
    await wrapper.get('[data-testid="sampling-reject"]').trigger('click')
    const result = await call
    expect(result.isError).toBe(true)
    expect(textOf(result).toLowerCase()).toMatch(/reject|declin|denied/)
    await eventually(() => !wrapper.find('[data-testid="sampling-dialog"]').exists())
    wrapper.unmount()
  }, 30_000)
})

describe('MCP sampling approval', () => {
  it('approves with the model picked in the dialog', async () => {
    const wrapper = await setup()
    const { llmProviders } = bridge!.presenters
    for (const [id, model] of [
      ['first', 'model-a'],
      ['second', 'model-b']
    ]) {
      await llmProviders.addProvider({
        id,
        kind: 'openai',
        name: id,
        baseUrl: 'http://127.0.0.1:9/v1',
        apiKey: 'sk-test-0123456789abcd',
        models: [{ id: model, name: model }]
      })
    }
    // The dialog's answer is recorded on its way in and refused, so no model runs here (the
    // provider's fetch cannot run in this DOM environment); test/main/mcp/sampling.test.ts runs an
    // approved request on the chosen model.
    const { mcp } = bridge!.presenters
    const decisions: unknown[] = []
    const answer = mcp.answerSampling.bind(mcp)
    mcp.answerSampling = (requestId, decision) => {
      decisions.push(decision)
      answer(requestId, { approved: false })
    }
    const call = mcp.callTool('t', 'sample', { prompt: 'what is 2+2' })
    await eventually(() => wrapper.find('[data-testid="sampling-dialog"]').exists())
    const picker = wrapper.get('[data-testid="sampling-dialog"] [data-testid="model-picker"]')
    await eventually(() => picker.findAll('option').some((o) => o.text() === 'model-b'))
    await picker.setValue('second\u0000model-b')
    await wrapper.get('[data-testid="sampling-approve"]').trigger('click')
    await call
    expect(decisions).toEqual([{ approved: true, providerId: 'second', modelId: 'model-b' }])
    await eventually(() => !wrapper.find('[data-testid="sampling-dialog"]').exists())
    wrapper.unmount()
  }, 30_000)
})
