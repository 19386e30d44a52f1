import { z } from 'zod'
import { networkRequestFor } from '../../permission/networkRequests'
import description from './descriptions/web_fetch.md?raw'
import { WEB_SERVER, ToolError, defineAgentTool, type AgentToolResult } from './defineTool'

const input = z.strictObject({
  url: z.string().trim().min(1).max(2048).describe('The page’s address (http or https)')
})

/** The host of an http(s) address, lower-case, or null for anything else. */
function hostOf(raw: string): string | null {
  try {
    const url = new URL(raw)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
    return url.hostname.toLowerCase()
  } catch {
    return null
  }
}

/**
 * Reads a page as markdown. A network action: in every mode but full access it asks per host
 * (a `network` request), and "always for this domain" stores a rule for the host.
 */
export const webFetchTool = defineAgentTool({
  name: 'web_fetch',
  group: WEB_SERVER,
  labelKey: 'settingsAgentTools.labels.web_fetch',
  // It asks (a network request), and a GET can still change things on the server's side.
  readOnly: false,
  parallelSafe: false,
  description,
  input,
  available: ({ runtime }) => !!runtime.web,
  refuse: (args) =>
    hostOf(args.url)
      ? null
      : new ToolError('web_fetch_bad_url', 'web_fetch reads only http:// and https:// addresses.'),
  checkPermission(args, ctx) {
    const host = hostOf(args.url)
    return host
      ? networkRequestFor({ tool: 'web_fetch', server: WEB_SERVER, sessionId: ctx.sessionId, host })
      : null
  },
  async execute(args, ctx): Promise<AgentToolResult> {
    const web = ctx.runtime.web
    if (!web) throw new ToolError('web_fetch_unavailable', 'Web access is not set up in this app.')
    let page
    try {
      page = await web.fetchPage(args.url, ctx.signal)
    } catch (error) {
      if (ctx.signal?.aborted) throw error
      const code = (error as { code?: unknown }).code
      throw new ToolError(
        typeof code === 'string' ? code : 'web_fetch_failed',
        error instanceof Error ? error.message : String(error)
      )
    }
    return {
      ok: true,
      summary: `Read ${page.title || page.url} (${page.markdown.length} characters${page.truncated ? ', cut' : ''})`,
      content: page.text,
      data: { kind: 'web_page', url: page.url, title: page.title, truncated: page.truncated, untrusted: true }
    }
  }
})
