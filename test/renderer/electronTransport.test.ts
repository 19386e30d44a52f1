import { describe, expect, it } from 'vitest'
import { reactive } from 'vue'
import { electronTransport } from '@renderer/api/transports'

describe('Electron transport', () => {
  it('sends reactive state as plain data (IPC structured-clones and refuses proxies)', async () => {
    const sent: unknown[] = []
    const transport = electronTransport({
      // What ipcRenderer.invoke does to its arguments before they leave the renderer.
      invoke: async (route, input) => {
        sent.push(structuredClone({ route, input }))
        return { ok: true, data: {} }
      },
      on: () => () => {}
    })
    const form = reactive({ server: { name: 'everything', args: ['stdio'], env: { TOKEN: 'x' } } })
    expect(() => structuredClone(form)).toThrow()
    await expect(transport.invoke('mcp.addServer', form)).resolves.toEqual({ ok: true, data: {} })
    expect(sent).toEqual([
      {
        route: 'mcp.addServer',
        input: { server: { name: 'everything', args: ['stdio'], env: { TOKEN: 'x' } } }
      }
    ])
  })
})
