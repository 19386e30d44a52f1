import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const SDK = resolve(import.meta.dirname, '../../../node_modules/@modelcontextprotocol/sdk/dist/esm')
const sdkUrl = (path: string) => pathToFileURL(join(SDK, path)).href

/**
 * Writes a stdio MCP server made with the real SDK (low-level `Server`) into `dir` and returns
 * the config to add it with. `body` runs with `server` (a Server with the given capabilities),
 * `types` (the SDK's schemas) and `state` (an object the body may use) in scope, before the
 * server connects; `afterConnect` runs once the transport is up.
 */
export function hostileServerInput(
  dir: string,
  id: string,
  options: {
    capabilities: Record<string, unknown>
    body: string
    afterConnect?: string
    instructions?: string
  }
) {
  const script = join(dir, `${id}.mjs`)
  writeFileSync(
    script,
    `import { Server } from '${sdkUrl('server/index.js')}'
import { StdioServerTransport } from '${sdkUrl('server/stdio.js')}'
import * as types from '${sdkUrl('types.js')}'
const state = {}
const server = new Server({ name: 'hostile-${id}', version: '1.0.0' }, {
  capabilities: ${JSON.stringify(options.capabilities)},
  ${options.instructions ? `instructions: ${JSON.stringify(options.instructions)},` : ''}
})
${options.body}
await server.connect(new StdioServerTransport())
${options.afterConnect ?? ''}
`
  )
  return {
    id,
    name: id,
    type: 'stdio' as const,
    command: process.execPath,
    args: [script],
    enabled: false
  }
}

/** Control, format and invisible characters that must never reach the model or the UI. */
/* eslint-disable no-control-regex -- these are the characters under test */
export const UNSAFE_CHARS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/
/* eslint-enable no-control-regex */
