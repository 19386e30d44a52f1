import { describe, expect, it } from 'vitest'
import { mcpElicitationRequested, mcpSamplingRequested } from '@shared/contracts/events/mcp.events'
import type { McpElicitationRequest, McpSamplingRequest } from '@shared/types/mcp'
import { callsReply, eventsOf, textReply, toolCall, toolResults, useLoopHarness } from '../loop/helpers'
import { hostileServerInput, UNSAFE_CHARS } from './hostileServer'
import { until } from '../../helpers/until'

const harness = useLoopHarness()

// Every text the server gives carries ESC sequences, NUL, a bidi override, an isolate, zero-width
// characters, a BOM and C1 controls. JSON escapes, so the server file itself stays plain text.
const DIRTY = String.raw`\u001b[2J\u001b]0;owned\u0007\u0000A\u202eB\u2066C\u200bD\u200dE\ufeffF\u0085G\u009bH\r\nI`
// NEL (\u0085) and CRLF are line breaks: they become \n.
const CLEAN = 'ABCDEF\nGH\nI'

const TEXT_SERVER = {
  capabilities: { tools: {}, prompts: {}, resources: {} },
  instructions: JSON.parse(`"${DIRTY}"`),
  body: `
const dirty = JSON.parse('"${DIRTY.replace(/\\/g, '\\\\')}"')
server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: [
  { name: 'look', title: 'T' + dirty, description: 'D' + dirty,
    inputSchema: { type: 'object', properties: { q: { type: 'string', description: 'Q' + dirty } } } },
  { name: 'ask', inputSchema: { type: 'object' } }
] }))
server.setRequestHandler(types.CallToolRequestSchema, async (request) => {
  if (request.params.name === 'ask') {
    const answer = await server.elicitInput({ message: 'M' + dirty, requestedSchema: { type: 'object', properties: {
      name: { type: 'string', title: 'N' + dirty, description: 'P' + dirty } } } })
    const sampled = await server.createMessage({ systemPrompt: 'S' + dirty, maxTokens: 5,
      messages: [{ role: 'user', content: { type: 'text', text: 'U' + dirty } }] }).catch((e) => ({ error: e.message }))
    return { content: [{ type: 'text', text: JSON.stringify({ answer, sampled }) }] }
  }
  process.stderr.write('E' + dirty + '\\n')
  return { content: [{ type: 'text', text: 'R' + dirty }] }
})
server.setRequestHandler(types.ListPromptsRequestSchema, async () => ({ prompts: [
  { name: 'p', description: 'PD' + dirty, arguments: [{ name: 'a', description: 'PA' + dirty }] }
] }))
server.setRequestHandler(types.GetPromptRequestSchema, async () => ({ description: 'GD' + dirty, messages: [
  { role: 'user', content: { type: 'text', text: 'GM' + dirty } }
] }))
server.setRequestHandler(types.ListResourcesRequestSchema, async () => ({ resources: [
  { uri: 'test://r', name: 'RN' + dirty, description: 'RD' + dirty }
] }))
server.setRequestHandler(types.ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: [] }))
server.setRequestHandler(types.ReadResourceRequestSchema, async () => ({ contents: [
  { uri: 'test://r', text: 'RT' + dirty }
] }))
`
}

describe('control and invisible characters from a server', () => {
  it('never reach the model: tool title, description, schema text and results arrive clean', async () => {
    const h = await harness([callsReply(toolCall('c1', 'dirty__look', { q: 'x' })), textReply('ok')])
    await h.presenters.mcp.addServer(hostileServerInput(h.dataDir, 'dirty', TEXT_SERVER))
    await h.presenters.mcp.startServer('dirty')
    const { sessionId } = await h.send('look', { permissionMode: 'full_access' })
    await h.idle(sessionId)

    const [first, second] = h.bodies()
    const tool = (first.tools ?? []).find((t) => t.function.name === 'dirty__look')
    expect(tool?.function.description).toContain(`D${CLEAN}`)
    expect(
      (tool?.function.parameters as { properties: { q: { description: string } } }).properties.q.description
    ).toBe(`Q${CLEAN}`)
    expect(JSON.stringify(first)).not.toMatch(UNSAFE_CHARS)
    const [result] = toolResults(second)
    expect(result.content).toBe(`R${CLEAN}`)
    expect(JSON.stringify(second)).not.toMatch(UNSAFE_CHARS)
  })

  it('never reach the UI: views, prompts, resources, dialogs and stderr arrive clean', async () => {
    const h = await harness([])
    const mcp = h.presenters.mcp
    await mcp.addServer(hostileServerInput(h.dataDir, 'dirty', TEXT_SERVER))
    await mcp.startServer('dirty')

    const [look] = mcp.listToolViews('dirty')
    expect(look).toMatchObject({ title: `T${CLEAN}`, description: `D${CLEAN}` })
    expect(mcp.listPrompts('dirty')[0]).toMatchObject({
      description: `PD${CLEAN}`,
      arguments: [{ name: 'a', description: `PA${CLEAN}` }]
    })
    expect((await mcp.getPrompt('dirty', 'p', {})).messages[0].content).toEqual({
      type: 'text',
      text: `GM${CLEAN}`
    })
    expect(mcp.listResources('dirty').resources[0]).toMatchObject({
      name: `RN${CLEAN}`,
      description: `RD${CLEAN}`
    })
    expect((await mcp.readResource('dirty', 'test://r'))[0].text).toBe(`RT${CLEAN}`)

    await mcp.callTool('dirty', 'look', {})
    await until(() => mcp.getServer('dirty').status.stderrTail.some((l) => l.startsWith('E')), {
      timeoutMs: 15_000
    })
    expect(mcp.getServer('dirty').status.stderrTail).toContain('EABCDEF\nGH')

    const asked = mcp.callTool('dirty', 'ask', {})
    await until(() => eventsOf(h, mcpElicitationRequested).length > 0, { timeoutMs: 15_000 })
    const { request: elicitation } = eventsOf(h, mcpElicitationRequested)[0] as {
      request: McpElicitationRequest
    }
    expect(elicitation.message).toBe(`M${CLEAN}`)
    expect(JSON.stringify(elicitation.requestedSchema)).not.toMatch(UNSAFE_CHARS)
    mcp.answerElicitation(elicitation.requestId, { action: 'decline' })
    await until(() => eventsOf(h, mcpSamplingRequested).length > 0, { timeoutMs: 15_000 })
    const { request: sampling } = eventsOf(h, mcpSamplingRequested)[0] as {
      request: McpSamplingRequest
    }
    expect(sampling.systemPrompt).toBe(`S${CLEAN}`)
    expect(sampling.messages[0].text).toBe(`U${CLEAN}`)
    mcp.answerSampling(sampling.requestId, { approved: false })
    await asked

    expect(JSON.stringify(mcp.getServer('dirty'))).not.toMatch(UNSAFE_CHARS)
    expect(JSON.stringify(h.events)).not.toMatch(UNSAFE_CHARS)
  })
})
