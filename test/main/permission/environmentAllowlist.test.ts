// Adversarial: variables of the app's environment that nobody named must not reach the model,
// whatever their names look like. Everything here runs through the composition root
// (createPresenters): the exec tool in each permission mode (real bwrap, real host shell), a
// real stdio MCP server written with the SDK, and the real fake ACP agent.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { PermissionMode } from '@shared/types/permission'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { CommandPermissionRequiredError } from '../../../src/main/presenter/permission'
import { childEnvironment } from '../../../src/main/presenter/permission/childEnvironment'
import { isSecretVariableName } from '../../../src/main/presenter/permission/secretVariables'
import { fakeAgentProgram } from '../../fixtures/acp/build'
import { script } from '../../fixtures/acp/script'
import { answering, collect, saidText } from '../acp/harness'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'

/** Secret-looking and innocent-looking names the old denylist missed, and some it caught. */
const PLANTED = [
  'GITHUB_PAT',
  'MYSQL_PWD',
  'SLACK_WEBHOOK_URL',
  'API_KEY_OPENAI',
  'OPENAI_API_KEY_2',
  'MONGO_URL',
  'CI_JOB_JWT',
  'DATABASE_URI',
  'MY_APP_CONF',
  'SENTRY_DSN',
  'HF_HUB_TOKEN',
  'X_FOO',
  'OPENAI_API_KEY',
  'AWS_SECRET_ACCESS_KEY',
  'PGPASSWORD',
  'STRIPE_SK',
  'KUBECONFIG',
  'DOCKER_CONFIG',
  'HTTPS_PROXY',
  'GOPROXY',
  'PIP_INDEX_URL',
  'NODE_OPTIONS',
  'SSH_AUTH_SOCK',
  'HOMEBREW_GITHUB_API_TOKEN',
  'LC_SECRET',
  'XDG_SECRET',
  'PATH_TOKEN',
  'home_pass',
  'db'
]
const MARK = 'planted-zq9'
/** A value each planted variable holds; none may appear in anything the model or a server sees. */
const valueOf = (name: string) =>
  // NODE_OPTIONS must stay valid: a leak should show as the value, not as a node crash.
  name === 'NODE_OPTIONS' ? `--title=${MARK}-node-options` : `${MARK}-${name}-value`

const saved = new Map<string, string | undefined>()
beforeAll(() => {
  for (const name of [...PLANTED, 'TZ']) saved.set(name, process.env[name])
  for (const name of PLANTED) process.env[name] = valueOf(name)
  // A built-in name, as a control: the same routes do pass what the allowlist names.
  process.env.TZ = 'Pacific/Chatham'
})
afterAll(() => {
  for (const [name, value] of saved) {
    if (value === undefined) delete process.env[name]
    else process.env[name] = value
  }
})

let dir: string
let workspace: string
let presenters: Presenters
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'env-allowlist-')))
  workspace = join(dir, 'ws')
  mkdirSync(workspace)
  presenters = createPresenters(createNodePlatform({ dataDir: join(dir, 'data'), log: () => {} }), {
    log: () => {}
  })
})
afterEach(async () => {
  await presenters.dispose()
  rmSync(dir, { recursive: true, force: true })
})

const allow = (names: string[]) => presenters.config.updateSettings({ allowedEnvVariables: names })

interface Ran {
  output: string
  sandboxed: boolean
  asked: boolean
}

let callCounter = 0
/** Runs `command` through the exec tool in `mode`; when it asks, the user approves once (it then runs on the host). */
async function exec(command: string, permissionMode: PermissionMode): Promise<Ran> {
  const ctx = { sessionId: 's1', workspaceDir: workspace, permissionMode }
  const call = () =>
    presenters.tools.callTool(
      { id: `c${++callCounter}`, name: 'exec', arguments: JSON.stringify({ command }) },
      ctx
    )
  let asked = false
  let result = await call().catch((error: unknown) => error)
  if (result instanceof CommandPermissionRequiredError) {
    asked = true
    presenters.permissions.decide(result.request, 'once')
    result = await call()
  }
  if (result instanceof Error) throw result
  const done = result as Awaited<ReturnType<Presenters['tools']['callTool']>>
  const output = done.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n')
  const data = done.rawData.toolResult.data as { sandboxed?: boolean }
  return { output, sandboxed: data.sandboxed === true, asked }
}

const shellNames = PLANTED.filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
/** Names the classifier does not flag: a line reading only these runs unasked (in the sandbox). */
const unflagged = shellNames.filter((name) => !isSecretVariableName(name))
const echoLine = (names: string[]) => `echo "${names.map((n) => `${n}=<$${n}>`).join(' ')}"`
const printenvLine = (names: string[]) => `printenv ${names.join(' ')}; echo "printenv exit $?"`
const nodeDump = `node -e "for (const [k, v] of Object.entries(process.env)) console.log(k + '=' + v)"`

function expectNoPlantedValue(output: string): void {
  expect(output).not.toContain(MARK)
}

describe('childEnvironment', () => {
  it('keeps the named variables and drops every other, whatever it looks like', () => {
    const source = { PATH: '/bin', LANG: 'C.UTF-8', LC_TIME: 'C', LC_SECRET: 's', GOPATH: '/go', FOO: 'x' }
    expect(childEnvironment(source, [], 'linux')).toEqual({
      PATH: '/bin',
      LANG: 'C.UTF-8',
      LC_TIME: 'C',
      GOPATH: '/go'
    })
    expect(childEnvironment(source, ['FOO'], 'linux')).toMatchObject({ FOO: 'x' })
    // Names are exact on POSIX, case-insensitive on Windows.
    expect(childEnvironment({ path: '/bin', Foo: 'x' }, ['FOO'], 'linux')).toEqual({})
    expect(
      childEnvironment({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows', Foo: 'x' }, ['FOO'], 'win32')
    ).toEqual({
      Path: 'C:\\bin',
      SystemRoot: 'C:\\Windows',
      Foo: 'x'
    })
    // Windows-only names do not pass elsewhere.
    expect(childEnvironment({ APPDATA: '/x' }, [], 'linux')).toEqual({})
  })

  it('refuses a setting that is not a variable name, and keeps the list', () => {
    allow(['MY_TOOL_HOME'])
    for (const bad of ['X=1', 'A B', '1ABC', '', '$(id)']) expect(() => allow([bad])).toThrow()
    expect(presenters.config.getSettings().allowedEnvVariables).toEqual(['MY_TOOL_HOME'])
  })
})

describe.runIf(process.platform === 'linux')('the environment a command gets through exec', () => {
  const modes: PermissionMode[] = ['default', 'accept_edits', 'sandboxed', 'full_access']
  for (const mode of modes) {
    // Every mode but full access runs some of these in the sandbox.
    it.skipIf(withoutBwrap && mode !== 'full_access')(
      `has none of ${PLANTED.length} planted variables in ${mode} mode, in the sandbox and on the host (echo, printenv, env)`,
      NEEDS_BWRAP,
      async () => {
        const runs: Ran[] = []
        const run = async (command: string) => {
          const ran = await exec(command, mode)
          runs.push(ran)
          expectNoPlantedValue(ran.output)
          return ran
        }
        // Only unflagged names: runs unasked, so in the sandbox (full access: on the host).
        const quiet = await run(echoLine(unflagged))
        expect(quiet.asked).toBe(false)
        expect(quiet.sandboxed).toBe(mode !== 'full_access')
        for (const name of unflagged) expect(quiet.output).toContain(`${name}=<>`)
        const quietPrintenv = await run(printenvLine(unflagged))
        expect(quietPrintenv.output).toContain('printenv exit 1')
        // Every name, flagged ones too: asked and approved where the mode asks, then run on the host.
        const all = await run(echoLine(shellNames))
        for (const name of shellNames) expect(all.output).toContain(`${name}=<>`)
        await run(printenvLine(PLANTED))
        const dump = await run('env')
        // The control: a built-in name passes by the same route, so the checks above can fail.
        expect(dump.output).toMatch(/^TZ=Pacific\/Chatham$/m)
        expect(dump.output).toMatch(/^PATH=/m)
        await run(nodeDump)
        if (mode === 'default') {
          // Both routes were taken: the sandbox for what ran unasked, the host for what was approved.
          expect(runs.some((r) => r.sandboxed)).toBe(true)
          expect(runs.some((r) => r.asked && !r.sandboxed)).toBe(true)
        }
        if (mode === 'full_access') expect(runs.every((r) => !r.sandboxed)).toBe(true)
      }
    )
  }

  it.skipIf(withoutBwrap)(
    'passes a name the user allowed in Settings, from the next command on; the classifier still asks for a secret-looking one',
    NEEDS_BWRAP,
    async () => {
      expectNoPlantedValue((await exec(printenvLine(['MY_APP_CONF', 'HF_HUB_TOKEN']), 'default')).output)
      allow(['MY_APP_CONF', 'HF_HUB_TOKEN'])
      const sandboxed = await exec('printenv MY_APP_CONF', 'default')
      expect(sandboxed).toMatchObject({ sandboxed: true, asked: false })
      expect(sandboxed.output).toContain(valueOf('MY_APP_CONF'))
      // The second wall: expanding a secret-looking name asks even when it is allowed.
      const token = await exec('echo "$HF_HUB_TOKEN"', 'default')
      expect(token).toMatchObject({ asked: true, sandboxed: false })
      expect(token.output).toContain(valueOf('HF_HUB_TOKEN'))
      // Still nothing else.
      const dump = await exec(nodeDump, 'sandboxed')
      expect(dump.sandboxed).toBe(true)
      const leaked = PLANTED.filter((n) => !['MY_APP_CONF', 'HF_HUB_TOKEN'].includes(n)).filter((n) =>
        dump.output.includes(valueOf(n))
      )
      expect(leaked).toEqual([])
      expect(dump.output).toContain(`MY_APP_CONF=${valueOf('MY_APP_CONF')}`)
    }
  )
})

const require = createRequire(import.meta.url)
/** A stdio MCP server (the real SDK) with one tool that returns its own environment. */
function writeEnvServer(): string {
  const sdk = (path: string) =>
    pathToFileURL(require.resolve(`@modelcontextprotocol/sdk/${path}`).replace('/dist/cjs/', '/dist/esm/'))
      .href
  const file = join(dir, 'envServer.mjs')
  writeFileSync(
    file,
    [
      `import { McpServer } from '${sdk('server/mcp.js')}'`,
      `import { StdioServerTransport } from '${sdk('server/stdio.js')}'`,
      `const server = new McpServer({ name: 'env-dump', version: '1.0.0' })`,
      `server.registerTool('dump-env', { description: 'Returns this process environment' }, async () => ({`,
      `  content: [{ type: 'text', text: JSON.stringify(process.env) }]`,
      `}))`,
      `await server.connect(new StdioServerTransport())`
    ].join('\n')
  )
  return file
}

describe('the environment of a stdio MCP server', () => {
  async function serverEnv(id: string, env: Record<string, string>): Promise<Record<string, string>> {
    await presenters.mcp.addServer({
      id,
      name: id,
      type: 'stdio',
      command: process.execPath,
      args: [writeEnvServer()],
      env,
      enabled: false
    })
    await presenters.mcp.startServer(id)
    const result = await presenters.mcp.callTool(id, 'dump-env', {})
    return JSON.parse((result.content[0] as { text: string }).text) as Record<string, string>
  }

  it('has none of the planted variables, only what is set for that server, and no host value through $NAME', async () => {
    const env = await serverEnv('dump', {
      MYSQL_PWD: 'set-for-this-server',
      FROM_HOST: '$GITHUB_PAT ${SENTRY_DSN}',
      REGION: 'eu-west'
    })
    expectNoPlantedValue(JSON.stringify(env))
    expect(env.MYSQL_PWD).toBe('set-for-this-server')
    expect(env.REGION).toBe('eu-west')
    // A config (an import, a deep link) cannot pull a host secret in by naming it.
    expect(env.FROM_HOST).toBe('$GITHUB_PAT ${SENTRY_DSN}')
    // Only allowlisted names besides the server's own.
    const own = new Set(['MYSQL_PWD', 'FROM_HOST', 'REGION'])
    const allowed = new Set(Object.keys(childEnvironment(process.env)))
    const extra = Object.keys(env).filter((name) => !own.has(name) && !allowed.has(name))
    expect(extra).toEqual([])
    expect(env.TZ).toBe('Pacific/Chatham')
  })

  it('gets a name the user allowed in Settings', async () => {
    allow(['SENTRY_DSN'])
    const env = await serverEnv('allowed', {})
    expect(env.SENTRY_DSN).toBe(valueOf('SENTRY_DSN'))
    expect(env.GITHUB_PAT).toBeUndefined()
  })
})

describe('the environment of an ACP agent', () => {
  async function agentSays(agentId: string, names: string[]): Promise<string[]> {
    const events = await collect(
      presenters.acp.prompt({
        chatSessionId: `chat-${agentId}`,
        agentId,
        workspaceDir: workspace,
        content: [{ type: 'text', text: script(...names.map((env) => ({ env }))) }],
        hooks: answering(() => 'reject').hooks
      })
    )
    return saidText(events).split('env:').slice(1)
  }
  async function addAgent(id: string, env: Record<string, string>): Promise<string> {
    await presenters.acp.addCustomAgent({
      id,
      name: `Fake ${id}`,
      command: process.execPath,
      args: [fakeAgentProgram()],
      env: {
        FAKE_ACP_RECORD: join(dir, `${id}.jsonl`),
        FAKE_ACP_STATE: join(dir, `${id}-state`),
        FAKE_ACP_CAPS: '{}',
        ...env
      }
    })
    await presenters.acp.setEnabled(id, true)
    return id
  }

  it('has none of the planted variables (nor its terminals), only what is set for that agent and what Settings allows', async () => {
    mkdirSync(join(dir, 'fake-state'))
    const agentId = await addAgent('fake', { CI_JOB_JWT: 'set-for-this-agent' })
    const said = await agentSays(agentId, [...PLANTED, 'TZ'])
    const byName = Object.fromEntries(PLANTED.map((name, i) => [name, said[i]]))
    expect(byName.CI_JOB_JWT).toBe('set-for-this-agent')
    const others = PLANTED.filter((name) => name !== 'CI_JOB_JWT')
    expect(others.filter((name) => byName[name] !== '(unset)')).toEqual([])
    expect(said[PLANTED.length]).toBe('Pacific/Chatham')

    // The agent's terminals run through the same process manager: on the host in full access,
    // in the sandbox for an unasked line in default mode.
    for (const [permissionMode, command] of [
      ['full_access', 'env'],
      ['default', `printenv ${unflagged.join(' ')}; echo "rc=$?"`]
    ] as const) {
      const events = await collect(
        presenters.acp.prompt({
          chatSessionId: `chat-terminal-${permissionMode}`,
          agentId,
          workspaceDir: workspace,
          permissionMode,
          content: [{ type: 'text', text: script({ terminal: { command } }) }],
          hooks: answering(() => 'reject').hooks
        })
      )
      const said = saidText(events)
      expect(said).toMatch(/terminal:exit=(0|1):/)
      expectNoPlantedValue(said)
      if (permissionMode === 'full_access') expect(said).toContain('TZ=Pacific/Chatham')
      else expect(said).toContain('rc=1')
    }

    allow(['X_FOO'])
    mkdirSync(join(dir, 'second-state'))
    const second = await addAgent('second', {})
    const [xFoo, pat] = await agentSays(second, ['X_FOO', 'GITHUB_PAT'])
    expect(xFoo).toBe(valueOf('X_FOO'))
    expect(pat).toBe('(unset)')
  })
})
