import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js'
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js'
import { MASKED_SECRET } from '@shared/types/mcp'
import { createHarness, type Harness } from './harness'
import { registryItem, startFakeRegistry, type FakeRegistry } from '../../fixtures/registry/fakeRegistry'
import {
  ECHO_PACKAGE_DIR,
  ECHO_PACKAGE_NAME,
  packPackage,
  startFakeNpmRegistry
} from '../../fixtures/registry/fakeNpm'
import { useTempDirs } from '../helpers/tempDir'

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})
const tempDir = useTempDirs()

let echoTarball: Buffer
beforeAll(async () => {
  echoTarball = await packPackage(ECHO_PACKAGE_DIR, '1.0.0')
}, 60_000)

/** A harness whose servers start with `env` (a fresh npm cache and home, so npx installs from the fake registry). */
function harness(env: Record<string, string> = {}): Harness {
  const home = tempDir()
  const h = createHarness({
    registryAllowLoopbackHttp: true,
    shellEnv: async () => ({
      PATH: process.env.PATH ?? '',
      HOME: home,
      npm_config_cache: join(home, 'npm-cache'),
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      ...env
    })
  })
  cleanups.push(() => h.close())
  return h
}

async function registry(items: unknown[]): Promise<FakeRegistry> {
  const fake = await startFakeRegistry({ items })
  cleanups.push(() => fake.close())
  return fake
}

async function toolsOf(h: Harness, serverId: string): Promise<string[]> {
  return (await h.mcp.listTools()).filter((t) => t.serverId === serverId).map((t) => t.name)
}

/** A Streamable HTTP MCP server that records the headers of every request and answers only with the right key. */
async function remoteServer(): Promise<{ url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = []
  const http = createServer(async (req, res) => {
    seen.push(req.headers)
    if (req.headers['x-api-key'] !== 'k-123 secret') {
      res.writeHead(403, { 'content-type': 'application/json' }).end('{"error":"bad key"}')
      return
    }
    const server = new Server({ name: 'remote', version: '1.0.0' }, { capabilities: { tools: {} } })
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: [{ name: 'whoami', inputSchema: { type: 'object' as const } }]
    }))
    server.setRequestHandler(CallToolRequestSchema, async (_request, extra) => ({
      content: [{ type: 'text', text: `region ${String(extra.requestInfo?.headers['x-region'])}` }]
    }))
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true
    })
    res.on('close', () => void transport.close())
    await server.connect(transport)
    await transport.handleRequest(req, res)
  })
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done))
  cleanups.push(
    () =>
      new Promise<void>((done) => {
        http.closeAllConnections()
        http.close(() => done())
      })
  )
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`, seen }
}

describe('MCP registry: installing', () => {
  it('an npm package installs as a pinned `npx -y name@version` from its registry, starts, and lists its tools; the secret variable is stored as a secret', async () => {
    const npm = await startFakeNpmRegistry([
      {
        name: ECHO_PACKAGE_NAME,
        version: '1.0.0',
        tarball: echoTarball,
        bin: { [ECHO_PACKAGE_NAME]: 'server.mjs' }
      }
    ])
    cleanups.push(() => npm.close())
    const fake = await registry([
      registryItem({
        name: 'io.github.deepchat/echo',
        title: 'Echo',
        description: 'Echoes text back',
        version: '1.0.0',
        repository: { url: 'https://github.com/deepchat/echo', source: 'github' },
        packages: [
          {
            registryType: 'npm',
            registryBaseUrl: npm.url,
            identifier: ECHO_PACKAGE_NAME,
            version: '1.0.0',
            transport: { type: 'stdio' },
            packageArguments: [
              { type: 'named', name: '--mode', value: 'fast' },
              { type: 'positional', valueHint: 'target_dir', description: 'Folder', isRequired: true }
            ],
            environmentVariables: [
              { name: 'FIXTURE_GREETING', description: 'What to say', isRequired: true, isSecret: true }
            ]
          }
        ]
      })
    ])
    const h = harness()
    await h.mcp.registry.updateSettings({ url: fake.url })
    const [listed] = (await h.mcp.registry.list({})).servers
    expect(listed.packages[0].command).toBe(`npx -y ${ECHO_PACKAGE_NAME}@1.0.0 --mode fast <target_dir>`)
    expect(listed.packages[0].inputs.map((i) => [i.key, i.isRequired, i.isSecret])).toEqual([
      ['env:FIXTURE_GREETING', true, true],
      ['arg:1', true, false]
    ])

    const view = await h.mcp.registry.install({
      name: 'io.github.deepchat/echo',
      version: '1.0.0',
      target: { kind: 'package', index: 0 },
      values: { 'env:FIXTURE_GREETING': 'hello from the form', 'arg:1': '/tmp/some folder' }
    })
    expect(view).toMatchObject({
      name: 'Echo',
      type: 'stdio',
      command: 'npx',
      args: ['-y', `${ECHO_PACKAGE_NAME}@1.0.0`, '--mode', 'fast', '/tmp/some folder'],
      env: { FIXTURE_GREETING: MASKED_SECRET, npm_config_registry: `${npm.url}/` },
      secretKeys: { env: ['FIXTURE_GREETING'], headers: [] }
    })
    expect(JSON.stringify(h.mcp.listServers())).not.toContain('hello from the form')

    await h.waitForStatus(view.id, (s) => s.state === 'running', 90_000)
    expect(await toolsOf(h, view.id)).toEqual(['echo', 'greeting'])
    const greeting = await h.mcp.callTool(view.id, 'greeting', {})
    expect(greeting.content).toEqual([
      { type: 'text', text: 'hello from the form ["--mode","fast","/tmp/some folder"]' }
    ])
    // npx fetched the package from the registry the server.json named.
    expect(npm.requests).toContain(`/${ECHO_PACKAGE_NAME}/-/${ECHO_PACKAGE_NAME}-1.0.0.tgz`)

    // The listing now shows it installed.
    const again = await h.mcp.registry.list({})
    expect(again.servers[0].installedAs).toBe(view.id)
  }, 120_000)

  it('a remote installs as a Streamable HTTP server sending its headers; the secret header is masked afterwards', async () => {
    const remote = await remoteServer()
    const fake = await registry([
      registryItem({
        name: 'com.example/remote',
        description: 'A remote server',
        version: '2.0.0',
        remotes: [
          {
            type: 'streamable-http',
            url: remote.url,
            headers: [
              { name: 'X-Api-Key', description: 'Your key', isRequired: true, isSecret: true },
              { name: 'X-Region', description: 'Region', choices: ['eu', 'us'], default: 'eu' }
            ]
          }
        ]
      })
    ])
    const h = harness()
    await h.mcp.registry.updateSettings({ url: fake.url })
    await h.mcp.registry.list({})
    await expect(
      h.mcp.registry.install({
        name: 'com.example/remote',
        version: '2.0.0',
        target: { kind: 'remote', index: 0 },
        values: {}
      })
    ).rejects.toMatchObject({
      code: 'mcp_registry_missing_value',
      message: 'Required before installing: X-Api-Key'
    })
    await expect(
      h.mcp.registry.install({
        name: 'com.example/remote',
        version: '2.0.0',
        target: { kind: 'remote', index: 0 },
        values: { 'header:X-Api-Key': 'k', 'header:X-Region': 'mars' }
      })
    ).rejects.toMatchObject({ code: 'invalid_input', message: 'X-Region: pick one of eu, us' })
    await expect(
      h.mcp.registry.install({
        name: 'com.example/remote',
        version: '2.0.0',
        target: { kind: 'remote', index: 0 },
        values: { 'header:X-Api-Key': 'k\r\nX-Injected: 1' }
      })
    ).rejects.toMatchObject({ code: 'invalid_input' })
    expect(h.mcp.listServers()).toEqual([])

    const view = await h.mcp.registry.install({
      name: 'com.example/remote',
      version: '2.0.0',
      target: { kind: 'remote', index: 0 },
      values: { 'header:X-Api-Key': 'k-123 secret' }
    })
    expect(view).toMatchObject({
      type: 'http',
      url: remote.url,
      headers: { 'X-Api-Key': MASKED_SECRET, 'X-Region': 'eu' },
      secretKeys: { headers: ['X-Api-Key'] }
    })
    await h.waitForStatus(view.id, (s) => s.state === 'running')
    expect(await toolsOf(h, view.id)).toEqual(['whoami'])
    expect((await h.mcp.callTool(view.id, 'whoami', {})).content).toEqual([
      { type: 'text', text: 'region eu' }
    ])
    expect(remote.seen.every((headers) => headers['x-api-key'] === 'k-123 secret')).toBe(true)
    expect(JSON.stringify(h.mcp.listServers())).not.toContain('k-123')
  })

  it('pypi and oci install as pinned uvx and docker lines, and only when the runtime is on the PATH', async () => {
    const bin = tempDir()
    const fake = await registry([
      registryItem({
        name: 'io.github.acme/multi',
        description: 'Three ways',
        version: '0.3.0',
        packages: [
          { registryType: 'pypi', identifier: 'acme-mcp', version: '0.3.0', transport: { type: 'stdio' } },
          {
            registryType: 'oci',
            identifier: 'ghcr.io/acme/mcp:0.3.0',
            transport: { type: 'stdio' },
            // Never passed: the app builds the runtime's line itself.
            runtimeArguments: [{ type: 'named', name: '-v', value: '/:/host' }],
            environmentVariables: [{ name: 'ACME_TOKEN', isRequired: true }]
          }
        ]
      })
    ])
    const h = harness({ PATH: bin })
    await h.mcp.registry.updateSettings({ url: fake.url })
    const [listed] = (await h.mcp.registry.list({})).servers
    expect(listed.packages.map((p) => p.command)).toEqual([
      'uvx acme-mcp==0.3.0',
      'docker run -i --rm -e ACME_TOKEN ghcr.io/acme/mcp:0.3.0'
    ])
    await expect(
      h.mcp.registry.install({
        name: listed.name,
        version: '0.3.0',
        target: { kind: 'package', index: 0 },
        values: {}
      })
    ).rejects.toMatchObject({
      code: 'mcp_registry_runtime_missing',
      message: expect.stringMatching(/uv \(uvx\) is not installed/)
    })
    const oci = {
      name: listed.name,
      version: '0.3.0',
      target: { kind: 'package' as const, index: 1 },
      values: { 'env:ACME_TOKEN': 't' }
    }
    await expect(h.mcp.registry.install(oci)).rejects.toMatchObject({
      code: 'mcp_registry_runtime_missing',
      message: expect.stringMatching(/Docker is not installed/)
    })
    expect(h.mcp.listServers()).toEqual([])
    expect(await h.mcp.registry.settings()).toMatchObject({
      runtimes: { npx: false, uvx: false, docker: false }
    })

    // With docker (a stand-in that exits) on the PATH the line is stored as shown.
    mkdirSync(bin, { recursive: true })
    writeFileSync(join(bin, 'docker'), '#!/bin/sh\nexit 3\n')
    chmodSync(join(bin, 'docker'), 0o755)
    const view = await h.mcp.registry.install({ ...oci, values: { 'env:ACME_TOKEN': 't' } })
    expect(view).toMatchObject({
      command: 'docker',
      args: ['run', '-i', '--rm', '-e', 'ACME_TOKEN', 'ghcr.io/acme/mcp:0.3.0'],
      secretKeys: { env: ['ACME_TOKEN'] }
    })
  })

  it('installs only servers main has read from the registry: an unknown one is looked up, a missing one refused', async () => {
    const remote = await remoteServer()
    const fake = await registry([
      registryItem({
        name: 'com.example/late',
        description: 'Not listed yet',
        version: '1.0.0',
        remotes: [{ type: 'sse', url: remote.url }]
      })
    ])
    const h = harness()
    await h.mcp.registry.updateSettings({ url: fake.url })
    const view = await h.mcp.registry.install({
      name: 'com.example/late',
      version: '1.0.0',
      target: { kind: 'remote', index: 0 },
      values: {}
    })
    expect(view).toMatchObject({ type: 'sse', url: remote.url })
    expect(fake.requests).toContain('/v0.1/servers/com.example%2Flate/versions/1.0.0')
    await expect(
      h.mcp.registry.install({
        name: 'com.example/none',
        version: '1.0.0',
        target: { kind: 'remote', index: 0 },
        values: {}
      })
    ).rejects.toMatchObject({ code: 'mcp_registry_not_found' })
    await expect(
      h.mcp.registry.install({
        name: 'com.example/late',
        version: '1.0.0',
        target: { kind: 'package', index: 0 },
        values: {}
      })
    ).rejects.toMatchObject({ code: 'invalid_input', message: 'com.example/late has no package 1' })
    await expect(
      h.mcp.registry.install({
        name: 'com.example/late',
        version: '1.0.0',
        target: { kind: 'remote', index: 0 },
        values: { 'env:PATH': '/evil' }
      })
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: '"env:PATH" is not a value this server asks for'
    })
  })
})
