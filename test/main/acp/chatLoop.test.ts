import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'
import type { BlockOf } from '@shared/types/blocks'
import { script } from '../../fixtures/acp/script'
import { ACP_PROVIDER_ID } from '@shared/types/acp'
import { AGENT_ID, LLM_MODEL, useAcpChat } from './chatHarness'
import { TEST_SERVER } from '../mcp/harness'
import { until } from '../../helpers/until'
import { acpSetEnabled } from '@shared/contracts/routes/acp.routes'
import { appChooseFolder } from '@shared/contracts/routes/app.routes'
import { chatStop } from '@shared/contracts/routes/chat.routes'
import { checkpointsListTurn, checkpointsRevertTurn } from '@shared/contracts/routes/checkpoints.routes'
import { permissionsRevokeRule } from '@shared/contracts/routes/permissions.routes'
import { sessionsCreate, sessionsUpdateSettings } from '@shared/contracts/routes/sessions.routes'

const open = useAcpChat()

const blocksOf = <K extends BlockOf<'tool_call'>['kind'] | 'plan' | 'action' | 'error'>(
  blocks: { kind: string }[],
  kind: K
) => blocks.filter((b) => b.kind === kind) as BlockOf<K>[]

describe('a chat whose model is an agent', () => {
  it('streams text, thoughts, the plan and tool calls with diffs into blocks, and puts the turn on the tape', async () => {
    const chat = await open()
    const target = join(chat.workspace, 'hello.txt')
    const { sessionId, assistantMessageId } = await chat.send(
      script(
        { thought: 'Thinking about it' },
        {
          plan: [
            { content: 'Write the file', priority: 'high', status: 'in_progress' },
            { content: 'Say so', priority: 'low', status: 'pending' }
          ]
        },
        { text: ['Writing ', 'the file.'] },
        {
          tool: {
            id: 'edit-1',
            title: 'Write hello.txt',
            kind: 'edit',
            status: 'pending',
            locations: [{ path: target }],
            content: [{ type: 'diff', path: target, oldText: null, newText: 'hi\n' }]
          }
        },
        { toolUpdate: { id: 'edit-1', status: 'completed' } },
        {
          plan: [
            { content: 'Write the file', priority: 'high', status: 'completed' },
            { content: 'Say so', priority: 'low', status: 'completed' }
          ]
        },
        { text: 'Done.' }
      )
    )
    await chat.idle(sessionId)
    const message = chat.message(assistantMessageId)
    expect(message.status).toBe('sent')
    expect(message.blocks.map((b) => b.kind)).toEqual([
      'reasoning_content',
      'plan',
      'content',
      'tool_call',
      'content'
    ])
    expect(message.blocks[0].text).toBe('Thinking about it')
    expect(chat.said(assistantMessageId)).toBe('Writing the file.Done.')
    const [plan] = blocksOf(message.blocks, 'plan')
    expect(plan.data).toMatchObject({
      revision: 2,
      entries: [
        { step: 'Write the file', status: 'completed' },
        { step: 'Say so', status: 'completed' }
      ]
    })
    const [call] = blocksOf(message.blocks, 'tool_call')
    expect(call).toMatchObject({
      status: 'success',
      toolCall: { id: 'edit-1', name: 'acp_edit', serverName: 'Fake agent', response: `Created ${target}` },
      data: {
        acp: {
          agentId: AGENT_ID,
          title: 'Write hello.txt',
          kind: 'edit',
          locations: [{ path: target, line: null }],
          content: [{ type: 'diff', path: target, oldText: null, newText: 'hi\n' }]
        }
      }
    })
    expect(message.tapeEntryId).not.toBeNull()
    const completed = chat.events.filter((e) => e.name === 'chat.stream.completed')
    expect(completed).toHaveLength(1)
    expect(completed[0].payload).toMatchObject({ sessionId, messageId: assistantMessageId, status: 'sent' })
    expect(chat.records().find((r) => r.event === 'new')).toMatchObject({ cwd: chat.workspace })
  })

  it('switches an LLM chat to the agent (picker) and back: each turn goes where the chat’s model says', async () => {
    const chat = await open({ llm: () => ({ steps: [{ type: 'text', text: 'from the LLM' }] }) })
    const first = await chat.send('hi', { model: LLM_MODEL })
    await chat.idle(first.sessionId)
    await chat.call(sessionsUpdateSettings, {
      sessionId: first.sessionId,
      patch: { model: { providerId: ACP_PROVIDER_ID, modelId: AGENT_ID } }
    })
    const second = await chat.send('now you', { sessionId: first.sessionId })
    await chat.idle(first.sessionId)
    expect(chat.said(second.assistantMessageId)).toBe('You said: now you')
    expect(chat.llm!.generationRequests()).toHaveLength(1)
    await chat.call(sessionsUpdateSettings, { sessionId: first.sessionId, patch: { model: LLM_MODEL } })
    const third = await chat.send('and back', { sessionId: first.sessionId })
    await chat.idle(first.sessionId)
    expect(chat.said(third.assistantMessageId)).toBe('from the LLM')
    // The LLM sees the agent's answer as part of the conversation.
    expect(JSON.stringify(chat.llm!.generationRequests()[1].body)).toContain('You said: now you')
    await chat.call(acpSetEnabled, { agentId: AGENT_ID, enabled: false })
    await expect(
      chat.call(sessionsUpdateSettings, {
        sessionId: first.sessionId,
        patch: { model: { providerId: ACP_PROVIDER_ID, modelId: AGENT_ID } }
      })
    ).rejects.toMatchObject({ code: 'invalid_model' })
  })

  it('refuses a message to a turned-off agent before writing anything', async () => {
    const chat = await open()
    const { sessionId } = await chat.send('hello')
    await chat.idle(sessionId)
    await chat.call(acpSetEnabled, { agentId: AGENT_ID, enabled: false })
    await expect(chat.send('again', { sessionId })).rejects.toMatchObject({ code: 'acp_agent_disabled' })
    expect(chat.presenters.sessions.messages.list(sessionId).messages).toHaveLength(2)
  })
})

describe('the agent asks the user through the pause → card → resume path', () => {
  const askingScript = (target: string) =>
    script(
      { tool: { id: 'w-1', title: 'Write notes.txt', kind: 'edit', locations: [{ path: target }] } },
      { permission: { toolCallId: 'w-1', title: 'Write notes.txt' } }
    )

  it('pauses the message on the agent’s permission request; "allow once" reaches the agent', async () => {
    const chat = await open()
    const target = join(chat.workspace, 'notes.txt')
    const { sessionId, assistantMessageId } = await chat.send(askingScript(target))
    await chat.idle(sessionId)
    const paused = chat.message(assistantMessageId)
    expect(paused.status).toBe('awaiting_interaction')
    expect(chat.presenters.sessions.require(sessionId).status).toBe('awaiting_interaction')
    const [interaction] = chat.pending(sessionId)
    expect(interaction).toMatchObject({ kind: 'permission', toolCallId: 'w-1' })
    const [action] = blocksOf(paused.blocks, 'action')
    expect(action.data).toMatchObject({
      actionType: 'permission',
      toolCallId: 'w-1',
      request: {
        type: 'mcp',
        server: `acp:${AGENT_ID}`,
        originalTool: 'edit',
        paths: [target],
        suggestedRule: { kind: 'mcp', pattern: `acp:${AGENT_ID}/edit` }
      }
    })
    expect(blocksOf(paused.blocks, 'tool_call')[0].status).toBe('pending')
    // The agent is still waiting: nothing was answered yet.
    expect(chat.records().filter((r) => r.event === 'permission')).toEqual([])

    const reply = await chat.answer(interaction, 'allow_once')
    expect(reply).toMatchObject({ accepted: true, remaining: 0, resumed: true })
    await chat.idle(sessionId)
    expect(chat.message(assistantMessageId).status).toBe('sent')
    expect(chat.said(assistantMessageId)).toBe('permission:selected:yes-once')
    expect(chat.records().find((r) => r.event === 'permission')).toMatchObject({
      outcome: { outcome: 'selected', optionId: 'yes-once' }
    })
  })

  it('an allowed write the agent reports completed shows as done, not cancelled', async () => {
    const chat = await open()
    const target = join(chat.workspace, 'notes.txt')
    const { sessionId, assistantMessageId } = await chat.send(
      script(
        { tool: { id: 'w-1', title: 'Write notes.txt', kind: 'edit', locations: [{ path: target }] } },
        { permission: { toolCallId: 'w-1', title: 'Write notes.txt' } },
        // Claude Code re-sends `pending` after the answer, then `completed`.
        { toolUpdate: { id: 'w-1', status: 'pending' } },
        { write: { path: target, content: 'written\n' } },
        { toolUpdate: { id: 'w-1', status: 'completed' } }
      )
    )
    await chat.idle(sessionId)
    await chat.answer(chat.pending(sessionId)[0], 'allow_once')
    await chat.idle(sessionId)
    expect(readFileSync(target, 'utf8')).toBe('written\n')
    const message = chat.message(assistantMessageId)
    expect(message.status).toBe('sent')
    expect(blocksOf(message.blocks, 'tool_call').map((c) => [c.toolCall.id, c.status])).toEqual([
      ['w-1', 'success']
    ])
    expect(blocksOf(message.blocks, 'action')[0].status).toBe('granted')
  })

  it('"deny" reaches the agent as its reject option, and the call shows the denial', async () => {
    const chat = await open()
    const { sessionId, assistantMessageId } = await chat.send(askingScript(join(chat.workspace, 'n.txt')))
    await chat.idle(sessionId)
    await chat.answer(chat.pending(sessionId)[0], 'deny')
    await chat.idle(sessionId)
    const message = chat.message(assistantMessageId)
    expect(message.status).toBe('sent')
    expect(chat.said(assistantMessageId)).toBe('permission:selected:no')
    expect(blocksOf(message.blocks, 'tool_call')[0]).toMatchObject({
      status: 'error',
      toolCall: { response: 'User denied the request.', isError: true }
    })
    expect(blocksOf(message.blocks, 'action')[0].status).toBe('denied')
  })

  it('"always allow" becomes our revocable rule: the next ask of that kind is allowed unasked, until revoked', async () => {
    const chat = await open()
    const target = join(chat.workspace, 'n.txt')
    const first = await chat.send(askingScript(target))
    await chat.idle(first.sessionId)
    await chat.answer(chat.pending(first.sessionId)[0], 'allow_always')
    await chat.idle(first.sessionId)
    // The agent gets "allow once": it keeps asking, and our rule answers.
    expect(chat.said(first.assistantMessageId)).toBe('permission:selected:yes-once')
    const rule = chat.presenters.permissions.listRules().find((r) => r.pattern === `acp:${AGENT_ID}/edit`)
    expect(rule).toMatchObject({ kind: 'mcp', effect: 'allow' })

    const second = await chat.send(askingScript(target), { sessionId: first.sessionId })
    await chat.idle(first.sessionId)
    expect(chat.message(second.assistantMessageId).status).toBe('sent')
    expect(chat.said(second.assistantMessageId)).toBe('permission:selected:yes-once')

    await chat.call(permissionsRevokeRule, { id: rule!.id })
    const third = await chat.send(askingScript(target), { sessionId: first.sessionId })
    await chat.idle(first.sessionId)
    expect(chat.message(third.assistantMessageId).status).toBe('awaiting_interaction')
  })

  it('asks before a read outside the workspace; the agent reads only after "allow"', async () => {
    const chat = await open()
    const secret = join(chat.outside, 'diary.txt')
    writeFileSync(secret, 'dear diary')
    const { sessionId, assistantMessageId } = await chat.send(script({ read: { path: secret } }))
    await chat.idle(sessionId)
    const [interaction] = chat.pending(sessionId)
    const paused = chat.message(assistantMessageId)
    expect(blocksOf(paused.blocks, 'action')[0].data).toMatchObject({
      request: { type: 'read', paths: [secret], server: `acp:${AGENT_ID}`, tool: 'fs/read_text_file' }
    })
    // No agent call names the file: the read is shown as a call of its own, waiting.
    expect(blocksOf(paused.blocks, 'tool_call')[0]).toMatchObject({
      status: 'pending',
      toolCall: { id: interaction.toolCallId, name: 'acp_fs_read_text_file' }
    })
    await chat.answer(interaction, 'allow_once')
    await chat.idle(sessionId)
    expect(chat.said(assistantMessageId)).toBe('read:ok:dear diary')
    expect(blocksOf(chat.message(assistantMessageId).blocks, 'tool_call')[0].status).toBe('success')
    // The once-grant was spent on that read: a second read asks again.
    const again = await chat.send(script({ read: { path: secret } }), { sessionId })
    await chat.idle(sessionId)
    expect(chat.message(again.assistantMessageId).status).toBe('awaiting_interaction')
  })
})

describe('files and commands of an agent turn', () => {
  it('records the file a write replaced, so the turn’s changes list and revert like any turn’s', async () => {
    const chat = await open()
    const target = join(chat.workspace, 'notes.txt')
    writeFileSync(target, 'original\n')
    const { sessionId, assistantMessageId } = await chat.send(
      script(
        { tool: { id: 'e-1', title: 'Edit notes.txt', kind: 'edit', locations: [{ path: target }] } },
        { write: { path: target, content: 'changed\n' } },
        { write: { path: join(chat.workspace, 'new.txt'), content: 'new\n' } },
        { toolUpdate: { id: 'e-1', status: 'completed' } }
      )
    )
    await chat.idle(sessionId)
    expect(chat.said(assistantMessageId)).toBe('write:okwrite:ok')
    expect(readFileSync(target, 'utf8')).toBe('changed\n')
    const { checkpoint: turn } = await chat.call(checkpointsListTurn, {
      sessionId,
      messageId: assistantMessageId
    })
    expect(
      turn.files.map((f: { path: string; existedBefore: boolean }) => [f.path, f.existedBefore])
    ).toEqual([
      [target, true],
      [join(chat.workspace, 'new.txt'), false]
    ])
    // The write no call named is a call of its own in the message.
    const calls = blocksOf(chat.message(assistantMessageId).blocks, 'tool_call')
    expect(calls.map((c) => c.toolCall.name)).toEqual(['acp_edit', 'acp_fs_write_text_file'])
    await chat.call(checkpointsRevertTurn, { sessionId, messageId: assistantMessageId })
    expect(readFileSync(target, 'utf8')).toBe('original\n')
    expect(existsSync(join(chat.workspace, 'new.txt'))).toBe(false)
  })

  it.skipIf(withoutBwrap)(
    'runs a read-only command unasked in the sandbox, and asks before one that writes',
    NEEDS_BWRAP,
    async () => {
      const chat = await open()
      writeFileSync(join(chat.workspace, 'a.txt'), 'alpha')
      const first = await chat.send(
        script(
          { tool: { id: 't-1', title: 'cat a.txt', kind: 'execute' } },
          { terminal: { command: 'cat a.txt', toolCallId: 't-1' } }
        )
      )
      await chat.idle(first.sessionId)
      expect(chat.said(first.assistantMessageId)).toBe('terminal:exit=0:truncated=false:alpha')
      const [call] = blocksOf(chat.message(first.assistantMessageId).blocks, 'tool_call')
      expect(call.data?.acp?.content).toEqual([
        expect.objectContaining({ type: 'terminal', command: 'cat a.txt', output: 'alpha', sandboxed: true })
      ])

      const second = await chat.send(script({ terminal: { command: 'echo hi > out.txt' } }), {
        sessionId: first.sessionId
      })
      await chat.idle(first.sessionId)
      const [interaction] = chat.pending(first.sessionId)
      expect(blocksOf(chat.message(second.assistantMessageId).blocks, 'action')[0].data).toMatchObject({
        request: { type: 'command', command: 'echo hi > out.txt', tool: 'terminal/create' }
      })
      expect(existsSync(join(chat.workspace, 'out.txt'))).toBe(false)
      await chat.answer(interaction, 'allow_once')
      await chat.idle(first.sessionId)
      expect(chat.said(second.assistantMessageId)).toBe('terminal:exit=0:truncated=false:')
      expect(readFileSync(join(chat.workspace, 'out.txt'), 'utf8')).toBe('hi\n')
    }
  )
})

describe('the MCP servers an agent is handed', () => {
  it('only the servers this chat has on that are running: not one in error, not one switched off here', async () => {
    const chat = await open()
    const { mcp } = chat.presenters
    const server = (id: string, command: string, args: string[] = []) =>
      mcp.addServer({ id, name: id, type: 'stdio', command, args, env: {}, enabled: false })
    await server('healthy', process.execPath, [TEST_SERVER])
    await server('offhere', process.execPath, [TEST_SERVER])
    await server('broken', 'nonexistent-mcp-binary-xyz')
    for (const id of ['healthy', 'offhere', 'broken']) await mcp.updateServer(id, { enabled: true })
    await mcp.startServer('healthy')
    await mcp.startServer('offhere')
    expect((await mcp.startServer('broken')).status.state).toBe('error')

    const { session } = await chat.call(sessionsCreate, {
      session: {
        providerId: ACP_PROVIDER_ID,
        modelId: AGENT_ID,
        // The page sends the picker's token for the folder (routes take only picked folders).
        workspaceDir: (await chat.call(appChooseFolder, { path: chat.workspace })).token
      }
    })
    await chat.call(sessionsUpdateSettings, {
      sessionId: session.id,
      patch: { mcpServers: { offhere: false } }
    })
    const { assistantMessageId } = await chat.send(script({ mcpServers: true }), { sessionId: session.id })
    await chat.idle(session.id)
    const said = chat.said(assistantMessageId)
    expect(said).toMatch(/^mcp:/)
    const names = (JSON.parse(said.slice('mcp:'.length)) as { name: string }[]).map((s) => s.name)
    expect(names).toContain('healthy')
    expect(names).not.toContain('broken')
    expect(names).not.toContain('offhere')
  })
})

describe('stop, crashes and restarts', () => {
  it('Stop sends session/cancel and ends the message as cancelled; the next message works', async () => {
    const chat = await open()
    const { sessionId, assistantMessageId } = await chat.send(
      script({ text: 'working' }, { waitForCancel: true })
    )
    await until(() => chat.records().some((r) => r.event === 'prompt'))
    await until(() => chat.presenters.agentRuntime.getMessage(assistantMessageId).blocks.length > 0)
    await chat.call(chatStop, { sessionId })
    const message = chat.message(assistantMessageId)
    expect(message.status).toBe('cancelled')
    expect(blocksOf(message.blocks, 'error')[0]).toMatchObject({ data: { code: 'user_cancelled' } })
    await until(() => chat.records().some((r) => r.event === 'cancel'))
    const next = await chat.send('hello again', { sessionId })
    await chat.idle(sessionId)
    expect(chat.said(next.assistantMessageId)).toBe('You said: hello again')
  })

  it('Stop on a message waiting for the user refuses the ask, cancels the agent turn, and frees the chat', async () => {
    const chat = await open()
    const { sessionId, assistantMessageId } = await chat.send(
      script({ permission: { toolCallId: 'x-1', title: 'Delete everything' } }, { text: 'after the answer' })
    )
    await chat.idle(sessionId)
    expect(chat.pending(sessionId)).toHaveLength(1)
    await chat.call(chatStop, { sessionId })
    expect(chat.pending(sessionId)).toHaveLength(0)
    expect(chat.message(assistantMessageId).status).toBe('cancelled')
    await until(() => chat.records().some((r) => r.event === 'permission'))
    expect(chat.records().find((r) => r.event === 'permission')).toMatchObject({
      outcome: { outcome: 'cancelled' }
    })
    expect(chat.records().some((r) => r.event === 'cancel')).toBe(true)
    // The agent ends the cancelled prompt in the background; the next message waits for that, not fails.
    const next = await chat.send('still there?', { sessionId })
    await chat.idle(sessionId)
    expect(chat.said(next.assistantMessageId)).toBe('You said: still there?')
  })

  it('a crashed agent fails the chat in flight only, with its stderr; the next message starts it again', async () => {
    const chat = await open()
    const calm = await chat.send('first')
    await chat.idle(calm.sessionId)
    const crashing = await chat.send(
      script({ text: 'about to fall' }, { crash: { stderr: 'boom: out of cheese' } })
    )
    await chat.idle(crashing.sessionId)
    const failed = chat.message(crashing.assistantMessageId)
    expect(failed.status).toBe('error')
    expect(blocksOf(failed.blocks, 'error')[0].text).toContain('boom: out of cheese')
    expect(chat.said(crashing.assistantMessageId)).toBe('about to fall')
    expect(chat.presenters.sessions.require(calm.sessionId).status).toBe('idle')
    // Both chats go on with a new process, each in its own session.
    const again = await chat.send(script({ history: true }), { sessionId: crashing.sessionId })
    await chat.idle(crashing.sessionId)
    expect(chat.said(again.assistantMessageId)).toMatch(/^history:2:/)
    const other = await chat.send(script({ history: true }), { sessionId: calm.sessionId })
    await chat.idle(calm.sessionId)
    expect(chat.said(other.assistantMessageId)).toBe('history:2:first')
    expect(
      new Set(
        chat
          .records()
          .filter((r) => r.event === 'start')
          .map((r) => r.pid)
      ).size
    ).toBe(2)
  })

  it('continues the chat’s agent session after the app restarts', async () => {
    const chat = await open()
    const { sessionId } = await chat.send('remember me')
    await chat.idle(sessionId)
    await chat.restart()
    const next = await chat.send(script({ history: true }), { sessionId })
    await chat.idle(sessionId)
    expect(chat.said(next.assistantMessageId)).toBe('history:2:remember me')
    expect(chat.records().filter((r) => r.event === 'load')).toHaveLength(1)
  })

  it('a message left waiting by a restart ends as interrupted when answered', async () => {
    const chat = await open()
    const { sessionId, assistantMessageId } = await chat.send(script({ permission: { toolCallId: 'p-1' } }))
    await chat.idle(sessionId)
    await chat.restart()
    const [interaction] = chat.pending(sessionId)
    await chat.answer(interaction, 'allow_once')
    await chat.idle(sessionId)
    const message = chat.message(assistantMessageId)
    expect(message.status).toBe('error')
    expect(blocksOf(message.blocks, 'error')[0].data.code).toBe('interrupted')
    const next = await chat.send('and now?', { sessionId })
    await chat.idle(sessionId)
    expect(chat.said(next.assistantMessageId)).toBe('You said: and now?')
  })
})
