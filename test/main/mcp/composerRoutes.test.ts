import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, testServerInput, type Harness } from './harness'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const TINY_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='

async function twoServers(): Promise<Harness> {
  h = createHarness()
  for (const id of ['one', 'two']) {
    await h.mcp.addServer({ ...testServerInput(id), enabled: false })
    await h.mcp.startServer(id)
  }
  return h
}

describe('the prompt and resource routes the composer uses', () => {
  it('search prompts, resources and templates across every running server', async () => {
    const { mcp } = await twoServers()
    const prompts = mcp.listPrompts(undefined, 'greet')
    expect(prompts.map((p) => [p.serverId, p.name])).toEqual([
      ['one', 'greet'],
      ['two', 'greet']
    ])
    expect(mcp.listPrompts(undefined, 'image embedded').map((p) => p.name)).toEqual(['rich', 'rich'])
    expect(mcp.listPrompts(undefined, 'no such words')).toEqual([])
    const found = mcp.listResources(undefined, 'readme')
    expect(found.resources.map((r) => [r.serverId, r.uri])).toEqual([
      ['one', 'test://readme'],
      ['two', 'test://readme']
    ])
    expect(found.templates).toEqual([])
    expect(mcp.listResources('one', 'doc').templates.map((t) => t.uriTemplate)).toEqual(['test://doc/{id}'])
  }, 30_000)

  it("return a prompt's messages typed: text, image and embedded resource", async () => {
    const { mcp } = await twoServers()
    const prompt = await mcp.getPrompt('one', 'rich', {})
    expect(prompt.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Look at this' } },
      { role: 'user', content: { type: 'image', data: TINY_PNG, mimeType: 'image/png' } },
      {
        role: 'assistant',
        content: {
          type: 'resource',
          resource: { uri: 'test://doc/9', mimeType: 'text/plain', text: 'doc nine' }
        }
      }
    ])
    expect(await mcp.readResource('two', 'test://readme')).toEqual([
      { uri: 'test://readme', mimeType: 'text/plain', text: 'read me' }
    ])
  }, 30_000)

  it('complete a prompt argument from what the user typed so far', async () => {
    const { mcp } = await twoServers()
    const completion = await mcp.complete({
      serverId: 'one',
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'who', value: 'a' }
    })
    expect(completion.values).toEqual(['Ada', 'Alan'])
  }, 30_000)
})
