import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'

// Runs the built preload the way a sandboxed Electron renderer does: CommonJS, and `require`
// can reach nothing but 'electron'.
const preloadFile = join(import.meta.dirname, '..', '..', 'out', 'preload', 'index.cjs')

describe('built preload', () => {
  it('is CommonJS, requires only electron, and exposes exactly window.deepchat = {invoke, on}', async () => {
    const exposed: Record<string, Record<string, unknown>> = {}
    const invoked: unknown[] = []
    const required: string[] = []
    const electron = {
      contextBridge: {
        exposeInMainWorld: (key: string, api: Record<string, unknown>) => (exposed[key] = api)
      },
      ipcRenderer: {
        invoke: async (channel: string, message: unknown) => invoked.push({ channel, message }),
        on: () => {},
        removeListener: () => {}
      }
    }
    const module = { exports: {} }
    runInNewContext(readFileSync(preloadFile, 'utf8'), {
      module,
      exports: module.exports,
      require: (name: string) => {
        required.push(name)
        if (name !== 'electron') throw new Error(`sandboxed preload cannot require ${name}`)
        return electron
      }
    })
    expect(required).toEqual(['electron'])
    expect(Object.keys(exposed)).toEqual(['deepchat'])
    expect(Object.keys(exposed.deepchat).sort()).toEqual(['invoke', 'on'])
    await (exposed.deepchat.invoke as (r: string, i: unknown) => Promise<unknown>)('app.getInfo', {})
    expect(invoked).toEqual([{ channel: 'deepchat:route', message: { route: 'app.getInfo', input: {} } }])
  })
})
