import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { PermissionRequest } from '@shared/types/permission'
import { SqlitePresenter } from '../../../src/main/presenter/sqlitePresenter'
import {
  PermissionPresenter,
  PermissionRuleStore,
  CommandPermissionService
} from '../../../src/main/presenter/permission'

let dir: string
let sqlite: SqlitePresenter
let gate: PermissionPresenter
const home = '/home/tester'

function open(): PermissionPresenter {
  sqlite = new SqlitePresenter({ file: join(dir, 'db.sqlite') })
  return new PermissionPresenter({ rules: new PermissionRuleStore(sqlite), home })
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gate-'))
  gate = open()
})
afterEach(() => {
  sqlite.close()
  rmSync(dir, { recursive: true, force: true })
})

const readNotes: PermissionRequest = {
  type: 'read',
  tool: 'read',
  server: 'agent-filesystem',
  sessionId: 's1',
  risk: 'medium',
  reason: 'outside',
  paths: ['/home/tester/notes/a.md'],
  suggestedRule: { kind: 'read', pattern: '~/notes/**', effect: 'allow' }
}
const mcpCall: PermissionRequest = {
  type: 'mcp',
  tool: 'echo',
  server: 'everything',
  originalTool: 'echo',
  sessionId: 's1',
  risk: 'medium',
  reason: 'MCP tool'
}

describe('PermissionPresenter', () => {
  it('asks when nothing covers a request and allows when nothing is needed', () => {
    expect(gate.evaluate(readNotes, 'default')).toEqual({ status: 'ask' })
    expect(gate.evaluate(null, 'default').status).toBe('allow')
  })

  it('never remembers a critical request, even when the answer names a rule', () => {
    const critical: PermissionRequest = {
      ...readNotes,
      type: 'write',
      risk: 'critical',
      suggestedRule: { kind: 'write', pattern: '~/**', effect: 'allow' }
    }
    expect(() => gate.decide(critical, 'always')).toThrow(/never always/)
    expect(() =>
      gate.decide(critical, 'always', { kind: 'write', pattern: '~/notes/**', effect: 'allow' })
    ).toThrow(/never always/)
    expect(gate.listRules()).toEqual([])
    // A broad rule stored by hand covers the path but still does not allow a critical request.
    gate.addRule({ kind: 'write', pattern: '~/**', effect: 'allow' })
    expect(gate.evaluate(critical, 'default')).toEqual({ status: 'ask' })
    expect(gate.evaluate({ ...critical, risk: 'high' }, 'default')).toMatchObject({ status: 'allow' })
    expect(gate.decide(critical, 'once')).toBeNull()
  })

  it('does not count a command as covered by rules when no rule covers any of it', () => {
    const outsideSandbox: PermissionRequest = {
      type: 'command',
      tool: 'exec',
      server: 'agent-filesystem',
      sessionId: 's1',
      risk: 'medium',
      reason: 'asks to run outside the sandbox',
      command: 'ls',
      cwd: '/w',
      lineReasons: [],
      subCommands: [
        { text: 'ls', program: 'ls', category: 'read_only', risk: 'low', reasons: [], outsidePaths: [] }
      ]
    }
    expect(gate.evaluate(outsideSandbox, 'default')).toEqual({ status: 'ask' })
    gate.addRule({ kind: 'exec', pattern: 'npm test*', effect: 'allow' })
    expect(gate.evaluate(outsideSandbox, 'default')).toEqual({ status: 'ask' })
  })

  it('full_access allows everything except what a deny rule forbids', () => {
    expect(gate.evaluate(readNotes, 'full_access').status).toBe('allow')
    gate.addRule({ kind: 'read', pattern: '~/notes/**', effect: 'deny' })
    expect(gate.evaluate(readNotes, 'full_access')).toMatchObject({ status: 'deny' })
  })

  it('a once grant is reported for consumption and disappears only when consumed', () => {
    gate.decide(readNotes, 'once')
    const first = gate.evaluate(readNotes, 'default')
    const second = gate.evaluate(readNotes, 'default')
    expect(first.status).toBe('allow')
    expect(second).toEqual(first)
    gate.consume('s1', (first as { onceGrant: string }).onceGrant)
    expect(gate.evaluate(readNotes, 'default')).toEqual({ status: 'ask' })
  })

  it('a session grant lasts for the session and never leaks to another session', () => {
    gate.decide(mcpCall, 'session')
    expect(gate.evaluate(mcpCall, 'default')).toMatchObject({ status: 'allow', via: 'session' })
    expect(gate.evaluate(mcpCall, 'default')).toMatchObject({ status: 'allow', via: 'session' })
    expect(gate.evaluate({ ...mcpCall, sessionId: 's2' }, 'default')).toEqual({ status: 'ask' })
    gate.clearSession('s1')
    expect(gate.evaluate(mcpCall, 'default')).toEqual({ status: 'ask' })
  })

  it('always stores the suggested rule, which survives a restart and can be revoked', () => {
    const rule = gate.decide(readNotes, 'always')!
    expect(rule).toMatchObject({ kind: 'read', pattern: '~/notes/**', effect: 'allow' })
    expect(gate.evaluate({ ...readNotes, sessionId: 'other' }, 'default').status).toBe('allow')

    sqlite.close()
    gate = open()
    expect(gate.listRules().map((r) => r.pattern)).toEqual(['~/notes/**'])
    expect(gate.evaluate(readNotes, 'default').status).toBe('allow')
    expect(gate.revokeRule(rule.id)).toBe(true)
    expect(gate.evaluate(readNotes, 'default')).toEqual({ status: 'ask' })
    expect(gate.revokeRule(rule.id)).toBe(false)
  })

  it('deny rules win over allow rules and over session grants', () => {
    gate.addRule({ kind: 'read', pattern: '~/notes/**', effect: 'allow' })
    gate.decide(readNotes, 'session')
    gate.addRule({ kind: 'read', pattern: '~/notes/a.md', effect: 'deny' })
    expect(gate.evaluate(readNotes, 'default')).toMatchObject({
      status: 'deny',
      rule: { pattern: '~/notes/a.md' }
    })
  })

  it('a write rule allows reading the same place; a read rule does not allow writing', () => {
    gate.addRule({ kind: 'write', pattern: '~/notes', effect: 'allow' })
    expect(gate.evaluate(readNotes, 'default').status).toBe('allow')
    gate.revokeRule(gate.listRules()[0].id)
    gate.addRule({ kind: 'read', pattern: '~/notes/**', effect: 'allow' })
    expect(gate.evaluate({ ...readNotes, type: 'write' }, 'default')).toEqual({ status: 'ask' })
  })

  it('exec rules match whole lines or every asking sub-command; deny matches any sub-command', () => {
    const commands = new CommandPermissionService(home)
    const scope = { sessionId: 's1', workspaceDir: dir, cwd: dir, tool: 'exec', server: 'agent-filesystem' }
    const npmTest = commands.check('npm test -- --run', scope)!
    const combined = commands.check('git status && npm test', scope)!
    const withCurl = commands.check('npm test && curl x', scope)!
    expect(gate.evaluate(npmTest, 'default')).toEqual({ status: 'ask' })
    gate.addRule({ kind: 'exec', pattern: 'npm test*', effect: 'allow' })
    expect(gate.evaluate(npmTest, 'default').status).toBe('allow')
    expect(gate.evaluate(combined, 'default').status).toBe('allow')
    expect(gate.evaluate(withCurl, 'default')).toEqual({ status: 'ask' })
    expect(gate.evaluate(commands.check('npm test; rm -rf ~', scope)!, 'default')).toEqual({ status: 'ask' })
    expect(gate.evaluate(commands.check('npm test $(curl x)', scope)!, 'default')).toEqual({ status: 'ask' })
    gate.addRule({ kind: 'exec', pattern: 'curl *', effect: 'deny' })
    expect(gate.evaluate(withCurl, 'full_access').status).toBe('deny')
  })

  it('mcp rules match server/tool with wildcards', () => {
    gate.addRule({ kind: 'mcp', pattern: 'everything/*', effect: 'allow' })
    expect(gate.evaluate(mcpCall, 'default').status).toBe('allow')
    expect(gate.evaluate({ ...mcpCall, server: 'github' }, 'default')).toEqual({ status: 'ask' })
  })

  it('rejects an empty rule pattern with a clear error', () => {
    expect(() => gate.addRule({ kind: 'exec', pattern: '  ', effect: 'allow' })).toThrow(/invalid|least/i)
  })
})
