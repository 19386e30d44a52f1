import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { picked, call, textReply, useLoopHarness, type LoopHarness } from '../loop/helpers'
import { codeOf, userTexts } from '../attachments/helpers'
import { attachmentsFromMcpResource } from '@shared/contracts/routes/attachments.routes'
import { chatSendMessage } from '@shared/contracts/routes/chat.routes'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import {
  libraryDeleteAssistant,
  libraryDeletePrompt,
  libraryExpandMcpPrompt,
  libraryListAssistants,
  libraryListPrompts,
  librarySaveAssistant,
  librarySavePrompt
} from '@shared/contracts/routes/library.routes'
import { sessionsGetSettings, sessionsUpdateSettings } from '@shared/contracts/routes/sessions.routes'
import { type OpenAiRequest } from '../../fixtures/llm/openAiRequest'

const harness = useLoopHarness()
const COMPOSER_SERVER = join(import.meta.dirname, '../../fixtures/mcp/composerServer.mjs')
const NEW_CHAT = { providerId: 'fake-openai', modelId: 'fake-model' }

function systemText(body: OpenAiRequest): string {
  return body.messages
    .filter((m) => m.role === 'system')
    .map((m) => m.content)
    .join('\n')
}

function toolNames(body: OpenAiRequest): string[] {
  return (body.tools ?? []).map((t) => t.function.name)
}

describe("a chat's instructions and parameters", () => {
  it("sends the chat's system prompt, temperature, top-p and output cap with its next request", async () => {
    const h = await harness([textReply('One.'), textReply('Two.')])
    const { sessionId } = await h.send('first')
    await h.idle(sessionId)
    const { settings } = await call(h, sessionsUpdateSettings, {
      sessionId,
      patch: {
        generation: {
          systemPrompt: 'Answer like a ship captain.',
          temperature: 0.2,
          topP: 0.9,
          maxTokens: 321
        }
      }
    })
    expect(settings.generation).toEqual({
      systemPrompt: 'Answer like a ship captain.',
      temperature: 0.2,
      topP: 0.9,
      maxTokens: 321
    })
    await h.send('second', { sessionId })
    await h.idle(sessionId)
    const [before, after] = h.bodies()
    expect(systemText(before)).not.toContain('ship captain')
    expect(before.temperature).toBeUndefined()
    expect(systemText(after)).toMatch(/^Answer like a ship captain\./)
    expect(after).toMatchObject({ temperature: 0.2, top_p: 0.9 })
    expect(after.max_tokens ?? after.max_completion_tokens).toBe(321)
  })

  it('clears a value with null and refuses values out of range', async () => {
    const h = await harness([textReply('One.')])
    const { sessionId } = await h.send('first')
    await h.idle(sessionId)
    await call(h, sessionsUpdateSettings, { sessionId, patch: { generation: { temperature: 1.1 } } })
    const { settings } = await call(h, sessionsUpdateSettings, {
      sessionId,
      patch: { generation: { temperature: null } }
    })
    expect(settings.generation).toEqual({})
    expect(
      await codeOf(h, sessionsUpdateSettings, { sessionId, patch: { generation: { temperature: 3 } } })
    ).toBe('invalid_input')
  })

  it('starts new chats with the defaults from Settings', async () => {
    const h = await harness([textReply('Terse.')])
    await call(h, configUpdateSettings, {
      patch: { defaultGenerationSettings: { systemPrompt: 'Be terse.', temperature: 0.4 } }
    })
    const { sessionId } = await h.send('hello')
    await h.idle(sessionId)
    expect(systemText(h.bodies()[0])).toMatch(/^Be terse\./)
    expect(h.bodies()[0].temperature).toBe(0.4)
    const { settings } = await call(h, sessionsGetSettings, { sessionId })
    expect(settings.generation).toEqual({ systemPrompt: 'Be terse.', temperature: 0.4 })
  })

  it("shows what the model changed through its settings tools in the chat's settings", async () => {
    const h = await harness([textReply('Ok.')])
    const { sessionId } = await h.send('hello')
    await h.idle(sessionId)
    await h.presenters.sessionSettings.updateForModel(sessionId, { temperature: 0.7, systemPrompt: 'Rhyme.' })
    const { settings } = await call(h, sessionsGetSettings, { sessionId })
    expect(settings.generation).toEqual({ temperature: 0.7, systemPrompt: 'Rhyme.' })
  })
})

describe('assistants', () => {
  it("starts a chat with the assistant's instructions, parameters, model and tool set", async () => {
    const h = await harness([textReply('Aye.')])
    const { assistant } = await call(h, librarySaveAssistant, {
      assistant: {
        name: 'Pirate',
        systemPrompt: 'Talk like a pirate.',
        model: NEW_CHAT,
        params: { temperature: 1.3 },
        disabledTools: ['exec']
      }
    })
    const accepted = await call(h, chatSendMessage, {
      text: 'Ahoy',
      newSession: { workspaceDir: await picked(h, h.workspace), assistantId: assistant.id }
    })
    await h.idle(accepted.sessionId)
    const [body] = h.bodies()
    expect(systemText(body)).toMatch(/^Talk like a pirate\./)
    expect(body.temperature).toBe(1.3)
    expect(toolNames(body)).toContain('read')
    expect(toolNames(body)).not.toContain('exec')
    expect(h.presenters.sessions.require(accepted.sessionId)).toMatchObject(NEW_CHAT)
    expect(await codeOf(h, chatSendMessage, { text: 'x', newSession: { assistantId: 'gone' } })).toBe(
      'assistant_not_found'
    )
  })

  it('keeps names unique and deletes', async () => {
    const h = await harness([])
    await call(h, librarySaveAssistant, { assistant: { name: 'Editor' } })
    expect(await codeOf(h, librarySaveAssistant, { assistant: { name: 'editor' } })).toBe('duplicate_name')
    const { assistants } = await call(h, libraryListAssistants, {})
    expect(await call(h, libraryDeleteAssistant, { id: assistants[0].id })).toEqual({ deleted: true })
    expect((await call(h, libraryListAssistants, {})).assistants).toEqual([])
  })
})

describe('the prompt library', () => {
  it('saves, renames, lists and deletes prompts with unique names', async () => {
    const h = await harness([])
    const { prompt } = await call(h, librarySavePrompt, {
      prompt: { name: 'translate', body: 'Translate into {{language}}: {{ text }}' }
    })
    expect(await codeOf(h, librarySavePrompt, { prompt: { name: 'Translate', body: 'x' } })).toBe(
      'duplicate_name'
    )
    await call(h, librarySavePrompt, { prompt: { ...prompt, name: 'translate-to' } })
    const { prompts } = await call(h, libraryListPrompts, {})
    expect(prompts).toEqual([{ ...prompt, name: 'translate-to', description: '' }])
    expect(await call(h, libraryDeletePrompt, { id: prompt.id })).toEqual({ deleted: true })
    expect(await call(h, libraryDeletePrompt, { id: prompt.id })).toEqual({ deleted: false })
  })
})

describe('MCP prompts and resources in the composer', () => {
  async function withComposerServer(h: LoopHarness): Promise<void> {
    await h.presenters.mcp.addServer({
      id: 'memo',
      name: 'memo',
      type: 'stdio',
      command: process.execPath,
      args: [COMPOSER_SERVER],
      enabled: false
    })
    await h.presenters.mcp.startServer('memo')
  }

  it('expands a prompt with arguments into the text and its other parts into attachments', async () => {
    const h = await harness([textReply('Compared.')], { vision: true })
    await withComposerServer(h)
    const review = await call(h, libraryExpandMcpPrompt, {
      serverId: 'memo',
      name: 'review_code',
      args: { language: 'Rust', focus: 'lifetimes' }
    })
    expect(review).toEqual({ text: 'Review this Rust code, focusing on lifetimes.', attachments: [] })
    const withFiles = await call(h, libraryExpandMcpPrompt, { serverId: 'memo', name: 'with_files' })
    expect(withFiles.text).toBe('Compare the picture with the notes.')
    expect(withFiles.attachments.map((a) => [a.name, a.kind])).toEqual([
      ['with_files-1.png', 'image'],
      ['field.txt', 'text'],
      ['guide.md', 'text']
    ])
    const accepted = await call(h, chatSendMessage, {
      text: withFiles.text,
      attachments: withFiles.attachments.map((a) => ({ sha256: a.sha256, name: a.name })),
      newSession: { ...NEW_CHAT, workspaceDir: await picked(h, h.workspace) }
    })
    await h.idle(accepted.sessionId)
    const [text] = userTexts(h.bodies()[0])
    expect(text).toContain('Field notes: a heron at dusk.')
    expect(text).toContain('# Guide\nHerons wade.')
  }, 30_000)

  it('attaches resources and filled-in resource templates by URI', async () => {
    const h = await harness([])
    await withComposerServer(h)
    const guide = await call(h, attachmentsFromMcpResource, { serverId: 'memo', uri: 'memo://guide' })
    expect(guide.attachments).toMatchObject([{ name: 'guide', kind: 'text', textChars: 20 }])
    const pixel = await call(h, attachmentsFromMcpResource, { serverId: 'memo', uri: 'memo://pixel.png' })
    expect(pixel.attachments).toMatchObject([{ name: 'pixel.png', kind: 'image', mimeType: 'image/png' }])
    const sheet = await call(h, attachmentsFromMcpResource, {
      serverId: 'memo',
      uri: 'memo://species/heron',
      name: 'heron.txt'
    })
    expect(h.presenters.attachments.store.text(sheet.attachments[0].sha256)).toBe('Species sheet: heron')
  }, 30_000)
})
