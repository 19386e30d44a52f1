import { describe, expect, it } from 'vitest'
import type { DeepLinkRequest } from '@shared/types/desktop'
import { DeepLinkInbox, deepLinkFromArgv, parseDeepLink } from '../../../src/main/electron/deepLinks'

const ONE_SERVER = { name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'] }
const asJson = (config: unknown) =>
  `deepchat-desk://mcp/add?config=${encodeURIComponent(JSON.stringify(config))}`
const asBase64 = (config: unknown) =>
  `deepchat-desk://mcp/add?config=${Buffer.from(JSON.stringify(config)).toString('base64')}`
const asBase64Url = (config: unknown) =>
  `deepchat-desk://mcp/add?config=${Buffer.from(JSON.stringify(config)).toString('base64url')}`

describe('deep link parsing', () => {
  it('reads one server or a {"mcpServers": …} file, URL-encoded, base64 or base64url', () => {
    for (const url of [asJson(ONE_SERVER), asBase64(ONE_SERVER), asBase64Url(ONE_SERVER)]) {
      expect(parseDeepLink(url).servers).toMatchObject([
        { name: 'fetch', type: 'stdio', command: 'uvx', args: ['mcp-server-fetch'] }
      ])
    }
    const file = {
      mcpServers: {
        docs: {
          type: 'streamable-http',
          url: 'https://mcp.example.com/mcp',
          headers: { Authorization: 'Bearer x' }
        }
      }
    }
    expect(parseDeepLink(asJson(file)).servers).toMatchObject([
      { name: 'docs', type: 'http', url: 'https://mcp.example.com/mcp' }
    ])
    // The name may come as a parameter; a trailing slash (Windows adds one) is fine.
    const named = `deepchat-desk://mcp/add/?name=fetch&config=${encodeURIComponent(JSON.stringify({ command: 'uvx' }))}`
    expect(parseDeepLink(named).servers[0].name).toBe('fetch')
  })

  it('keeps base64 that form decoding damaged (+ read as a space)', () => {
    // "?>" encodes to base64 with a "+"; an unencoded + in a query string arrives as a space.
    const config = { name: 'p', command: 'echo', args: ['??>>'] }
    const base64 = Buffer.from(JSON.stringify(config)).toString('base64')
    expect(base64).toContain('+')
    expect(parseDeepLink(`deepchat-desk://mcp/add?config=${base64}`).servers[0].args).toEqual(['??>>'])
  })

  it('never lets a link auto-approve tools', () => {
    const parsed = parseDeepLink(
      asJson({ ...ONE_SERVER, autoApprove: ['fetch'], autoApproveTools: ['fetch'] })
    )
    expect(parsed.droppedAutoApprove).toBe(true)
    expect(parsed.servers[0].autoApproveTools).toEqual([])
  })

  it('refuses links it does not understand, each with its reason', () => {
    const cases: Array<[string, RegExp]> = [
      ['https://example.com/mcp/add?config={}', /Not a deepchat-desk/],
      ['deepchat-desk://mcp/remove?config=%7B%7D', /Unknown link action "mcp\/remove"/],
      ['deepchat-desk://mcp/add', /no "config"/],
      ['deepchat-desk://mcp/add?config=%%%', /neither JSON nor base64/],
      [asJson([1, 2]), /must be a JSON object/],
      [asJson({ command: 'uvx' }), /needs a "name"/],
      [asJson({ mcpServers: { x: { args: [] } } }), /no usable server.*neither command nor url/],
      [asJson({ mcpServers: { memory: { type: 'inmemory', command: 'memory' } } }), /built-in servers/],
      [`deepchat-desk://mcp/add?config=${'a'.repeat(70_000)}`, /longer than/]
    ]
    for (const [url, reason] of cases) expect(() => parseDeepLink(url), url.slice(0, 60)).toThrow(reason)
    const eleven = {
      mcpServers: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`s${i}`, { command: 'x' }]))
    }
    expect(() => parseDeepLink(asJson(eleven))).toThrow(/at most 10/)
  })

  it('finds the link among a second instance’s arguments', () => {
    expect(
      deepLinkFromArgv(['/opt/app/deepchat-desk', '--no-sandbox', 'deepchat-desk://mcp/add?config=x'])
    ).toBe('deepchat-desk://mcp/add?config=x')
    expect(deepLinkFromArgv(['/opt/app/deepchat-desk', '--flag'])).toBeUndefined()
  })
})

describe('deep link inbox', () => {
  function inbox() {
    const received: DeepLinkRequest[] = []
    let n = 0
    return {
      received,
      inbox: new DeepLinkInbox({ onReceived: (r) => received.push(r), newId: () => `link-${++n}` })
    }
  }

  it('announces every link as a request and hands it out once, with the servers ready to import', () => {
    const { received, inbox: box } = inbox()
    const request = box.receive(asJson({ ...ONE_SERVER, env: { TOKEN: 'abc' }, autoApprove: ['fetch'] }))
    expect(received).toEqual([request])
    expect(request).toMatchObject({
      id: 'link-1',
      kind: 'mcp.add',
      droppedAutoApprove: true,
      servers: [{ name: 'fetch', env: { TOKEN: 'abc' } }]
    })
    expect(box.list()).toEqual([request])
    const taken = box.take('link-1')!
    expect(JSON.parse(taken.mcpServersJson!)).toEqual({
      mcpServers: {
        fetch: {
          type: 'stdio',
          command: 'uvx',
          args: ['mcp-server-fetch'],
          env: { TOKEN: 'abc' },
          url: '',
          headers: {},
          disabledTools: [],
          autoApproveTools: [],
          description: '',
          icon: '',
          disabled: false
        }
      }
    })
    expect(box.take('link-1')).toBeUndefined()
  })

  it('turns an unusable link into a request that explains why', () => {
    const { inbox: box } = inbox()
    expect(box.receive('deepchat-desk://mcp/add?config=not-json')).toEqual({
      id: 'link-1',
      kind: 'invalid',
      message: 'The link\'s "config" is neither JSON nor base64-encoded JSON'
    })
  })

  it('keeps only the latest few unanswered links', () => {
    const { inbox: box } = inbox()
    for (let i = 0; i < 8; i++) box.receive(asJson(ONE_SERVER))
    expect(box.list().map((r) => r.id)).toEqual(['link-4', 'link-5', 'link-6', 'link-7', 'link-8'])
  })
})
