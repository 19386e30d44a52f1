import { join } from 'node:path'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..', '..')
const eslint = new ESLint({ cwd: root })

/** Lints `code` as if it were a file at `path` in the tree (with the project's config). */
async function ruleIds(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) })
  return result.messages.map((m) => m.ruleId ?? m.message)
}

describe('presenters never listen to the renderer event hub', () => {
  it('fails lint when a presenter subscribes to the hub or imports it', async () => {
    const listening = `export function follow(events: { subscribe(l: () => void): () => void }) {
  return events.subscribe(() => {})
}
`
    expect(await ruleIds('src/main/presenter/somePresenter/index.ts', listening)).toEqual([
      'no-restricted-syntax'
    ])
    const importing = `import type { EventHub } from '../../bridge/events'
export type Hub = EventHub
`
    expect(await ruleIds('src/main/presenter/somePresenter/index.ts', importing)).toEqual([
      'no-restricted-imports'
    ])
  }, 60_000)

  it('lets the composition root create the hub and the transports subscribe to it', async () => {
    const transport = `import type { EventHub } from '../bridge/events'
export const attach = (events: EventHub) => events.subscribe(() => {})
`
    expect(await ruleIds('src/main/host/someTransport.ts', transport)).toEqual([])
    expect(await ruleIds('src/main/presenter/index.ts', transport)).toEqual([])
  }, 60_000)
})
