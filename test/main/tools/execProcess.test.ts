import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { CommandPermissionRequiredError } from '../../../src/main/presenter/permission'
import { createHarness, type Harness } from './helpers'
import { until } from '../../helpers/until'

let h: Harness
beforeEach(() => {
  h = createHarness()
})
afterEach(async () => {
  await h.close()
})

type Data = Record<string, unknown>
const data = (result: Awaited<ReturnType<Harness['call']>>): Data => result.rawData.toolResult.data as Data
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

describe('exec', () => {
  it('runs a read-only command in the workspace without asking', async () => {
    const result = await h.call('exec', { command: 'pwd && echo hi' })
    expect(result.rawData.isError).toBe(false)
    expect(h.text(result)).toBe(`${h.workspace}\nhi\nExit code: 0`)
  })

  it('reports a non-zero exit as an error result with the output', async () => {
    const result = await h.call('exec', { command: 'ls no-such-file' })
    expect(result.rawData.toolResult).toMatchObject({
      ok: false,
      error: { code: 'nonzero_exit' },
      data: { exitCode: 2 }
    })
    expect(h.text(result)).toMatch(/no-such-file[\s\S]*Exit code: 2/)
  })

  it('throws a CommandPermissionRequiredError carrying the full request', async () => {
    const error = await h.call('exec', { command: 'ls && rm -rf build' }).catch((e) => e)
    expect(error).toBeInstanceOf(CommandPermissionRequiredError)
    expect(error.request).toMatchObject({
      type: 'command',
      tool: 'exec',
      server: 'agent-filesystem',
      sessionId: 'session-1',
      command: 'ls && rm -rf build',
      cwd: h.workspace,
      risk: 'high',
      subCommands: [
        { program: 'ls', category: 'read_only', risk: 'low' },
        { program: 'rm', category: 'destructive', risk: 'high' }
      ],
      suggestedRule: { kind: 'exec', pattern: 'rm -rf build*' }
    })
    expect(error.request.reason).toContain('rm deletes')
  })

  it('consumes a once approval only when the command runs, not on pre-check', async () => {
    const call = { id: 'c1', name: 'exec', arguments: JSON.stringify({ command: 'touch made.txt' }) }
    const error = await h.tools.preCheckToolPermission(call, h.ctx).catch((e) => e)
    expect(error).toBeInstanceOf(CommandPermissionRequiredError)
    h.gate.decide(error.request, 'once')
    expect(await h.tools.preCheckToolPermission(call, h.ctx)).toEqual({ status: 'allowed' })
    expect(await h.tools.preCheckToolPermission(call, h.ctx)).toEqual({ status: 'allowed' })
    expect(existsSync(join(h.workspace, 'made.txt'))).toBe(false)
    expect((await h.tools.callTool(call, h.ctx)).rawData.isError).toBe(false)
    expect(existsSync(join(h.workspace, 'made.txt'))).toBe(true)
    await expect(h.tools.callTool(call, h.ctx)).rejects.toBeInstanceOf(CommandPermissionRequiredError)
  })

  it('kills the whole process tree at the timeout', async () => {
    const result = await h.call(
      'exec',
      { command: 'sleep 30 & echo $!; wait', timeout_ms: 500 },
      { permissionMode: 'full_access' }
    )
    expect(result.rawData.toolResult).toMatchObject({
      ok: false,
      error: { code: 'timed_out' },
      data: { timedOut: true }
    })
    const grandchild = Number(h.text(result).split('\n')[0])
    expect(grandchild).toBeGreaterThan(0)
    await until(() => !alive(grandchild))
  })

  it('closes stdin so a command waiting for input ends at once', async () => {
    const started = Date.now()
    const result = await h.call('exec', { command: 'cat' }, { permissionMode: 'full_access' })
    expect(h.text(result)).toBe('Exit code: 0')
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('yields a process id for a long command and keeps running it', async () => {
    const result = await h.call('exec', { command: 'sleep 0.6; echo finished', yieldMs: 100 })
    expect(data(result)).toMatchObject({ status: 'running' })
    const id = data(result).processId as string
    expect(h.text(result)).toContain(id)
    await until(
      async () => data(await h.call('process', { action: 'poll', process_id: id })).status === 'done'
    )
    const log = await h.call('process', { action: 'log', process_id: id })
    expect(data(log)).toMatchObject({ output: 'finished\n', totalLength: 9, exitCode: 0 })
  })

  it('runs a background process with open stdin for process write', async () => {
    const started = await h.call(
      'exec',
      { command: 'cat', background: true },
      { permissionMode: 'full_access' }
    )
    const id = data(started).processId as string
    await h.call('process', { action: 'write', process_id: id, data: 'hello\n', eof: true })
    await until(
      async () => data(await h.call('process', { action: 'poll', process_id: id })).status === 'done'
    )
    expect(data(await h.call('process', { action: 'poll', process_id: id }))).toMatchObject({
      output: 'hello\n',
      exitCode: 0
    })
    const write = await h.call('process', { action: 'write', process_id: id, data: 'more' })
    expect(write.rawData.toolResult.error?.code).toBe('not_running')
  })

  it('keeps the tail and spills the full output of a large command to the session folder', async () => {
    const result = await h.call('exec', { command: 'seq 1 30000' })
    const info = data(result)
    expect(info.outputLength).toBe(168894)
    const logFile = info.logFile as string
    expect(logFile.startsWith(join(h.dataRoot, 'session-1'))).toBe(true)
    expect(readFileSync(logFile, 'utf8').split('\n')[29999]).toBe('30000')
    const text = h.text(result)
    expect(text).toContain('30000\nExit code: 0')
    expect(text).toContain(`Full output (168894 characters): ${logFile}`)
    expect(text.length).toBeLessThan(13_000)
  })

  it('asks for a working directory outside the workspace and rejects a missing one', async () => {
    await expect(h.call('exec', { command: 'ls', cwd: h.root })).rejects.toBeInstanceOf(
      CommandPermissionRequiredError
    )
    const missing = await h.call('exec', { command: 'ls', cwd: 'nope' })
    expect(missing.rawData.toolResult.error?.code).toBe('cwd_not_found')
  })

  it('kills the command when the call is aborted', async () => {
    const controller = new AbortController()
    const pending = h.call('exec', { command: 'sleep 20' }, { signal: controller.signal })
    await until(() => h.tools.processes.list('session-1').some((p) => p.status === 'running'))
    const { pid } = h.tools.processes.list('session-1')[0]
    controller.abort()
    const result = await pending
    expect(alive(pid!)).toBe(false)
    expect(result.rawData.toolResult.error?.code).toBe('aborted')
    expect(h.tools.processes.list('session-1')).toEqual([])
  })

  it('rejects a timeout over 600 s', async () => {
    const result = await h.call('exec', { command: 'ls', timeout_ms: 600_001 })
    expect(result.rawData.toolResult.error?.code).toBe('invalid_arguments')
  })
})

describe('process', () => {
  it("lists, kills, clears and removes a session's processes", async () => {
    const started = await h.call('exec', { command: 'sleep 30', background: true })
    const id = data(started).processId as string
    const list = data(await h.call('process', { action: 'list' })) as {
      processes: { processId: string; status: string }[]
    }
    expect(list.processes).toMatchObject([{ processId: id, status: 'running' }])
    expect(await h.call('process', { action: 'list' }, { sessionId: 'other' })).toMatchObject({
      rawData: { toolResult: { data: { processes: [] } } }
    })
    const killed = await h.call('process', { action: 'kill', process_id: id })
    expect(h.text(killed)).toContain('"status":"killed"')
    await h.call('process', { action: 'clear', process_id: id })
    expect(data(await h.call('process', { action: 'log', process_id: id }))).toMatchObject({
      output: '',
      totalLength: 0
    })
    await h.call('process', { action: 'remove', process_id: id })
    expect(data(await h.call('process', { action: 'list' }))).toEqual({ processes: [] })
  })

  it('clears collected output and pages through the log', async () => {
    const started = await h.call('exec', { command: 'printf "abcdefghij"; sleep 30', background: true })
    const id = data(started).processId as string
    await until(
      async () =>
        (data(await h.call('process', { action: 'poll', process_id: id })).output as string) === 'abcdefghij'
    )
    expect(
      data(await h.call('process', { action: 'log', process_id: id, offset: 3, limit: 4 }))
    ).toMatchObject({ output: 'defg', totalLength: 10 })
    await h.call('process', { action: 'clear', process_id: id })
    expect(data(await h.call('process', { action: 'poll', process_id: id }))).toMatchObject({
      output: '',
      status: 'running'
    })
    await h.call('process', { action: 'remove', process_id: id })
  })

  it('gives clear errors for a missing id, an unknown process and closed stdin', async () => {
    expect((await h.call('process', { action: 'poll' })).rawData.toolResult.error).toMatchObject({
      code: 'invalid_arguments',
      message: expect.stringContaining('process_id')
    })
    expect(
      (await h.call('process', { action: 'poll', process_id: 'proc_nope' })).rawData.toolResult.error?.code
    ).toBe('not_found')
    const yielded = await h.call('exec', { command: 'sleep 2', yield_ms: 100 })
    const id = data(yielded).processId as string
    expect(
      (await h.call('process', { action: 'write', process_id: id, data: 'x' })).rawData.toolResult.error?.code
    ).toBe('stdin_closed')
  })

  it('checks text written into a running shell like a command', async () => {
    const shell = await h.call(
      'exec',
      { command: 'bash', background: true },
      { permissionMode: 'full_access' }
    )
    const id = data(shell).processId as string
    await expect(
      h.call('process', { action: 'write', process_id: id, data: 'rm -rf build\n' })
    ).rejects.toBeInstanceOf(CommandPermissionRequiredError)
    expect(
      (await h.call('process', { action: 'write', process_id: id, data: 'echo ok\n' })).rawData.isError
    ).toBe(false)
  })

  it('kills every process of a session when it is purged', async () => {
    const a = data(await h.call('exec', { command: 'sleep 30', background: true })).processId as string
    const pid = h.tools.processes.info('session-1', a).pid!
    expect(alive(pid)).toBe(true)
    await h.tools.purgeSession('session-1')
    await until(() => !alive(pid))
    expect(h.tools.processes.list('session-1')).toEqual([])
  })
})
