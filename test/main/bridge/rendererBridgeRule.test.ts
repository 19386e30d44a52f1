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

const calling = `import { useBridge } from '@renderer/api/bridge'
import { skillsList } from '@shared/contracts/routes/agentFeatures.routes'
export const load = () => useBridge().call(skillsList, { workspaceDir: null })
`

describe('only stores reach the bridge in the renderer', () => {
  it('fails lint when a component, page or helper imports the bridge client, however it is written', async () => {
    expect(await ruleIds('src/renderer/src/components/chat/SomeHelper.ts', calling)).toEqual([
      'no-restricted-imports'
    ])
    const relative = calling.replace('@renderer/api/bridge', '../../api/bridge')
    expect(await ruleIds('src/renderer/src/components/chat/SomeHelper.ts', relative)).toEqual([
      'no-restricted-imports'
    ])
    const everything = `import * as bridge from '@renderer/api/bridge'
export const client = bridge.useBridge
`
    expect(await ruleIds('src/renderer/src/lib/someHelper.ts', everything)).toEqual(['no-restricted-imports'])
    const transport = `import { websocketTransport } from '@renderer/api/transports'
export const make = websocketTransport
`
    expect(await ruleIds('src/renderer/src/lib/someHelper.ts', transport)).toEqual(['no-restricted-imports'])
    const component = `<script setup lang="ts">
import { onMounted } from 'vue'
import { onConnectionChange } from '@renderer/api/bridge'
onMounted(() => onConnectionChange(() => {}))
</script>
<template><p>hi</p></template>
`
    expect(await ruleIds('src/renderer/src/pages/settings/SomePage.vue', component)).toEqual([
      'no-restricted-imports'
    ])
  }, 60_000)

  it('fails lint when code outside the stores loads the bridge late or calls the preload directly', async () => {
    const late = `export const load = async () => (await import('@renderer/api/bridge')).useBridge()
`
    expect(await ruleIds('src/renderer/src/components/SomeThing.ts', late)).toEqual(['no-restricted-syntax'])
    const preload = `export const ask = () => window.deepchat?.invoke('skills.list', {})
`
    expect(await ruleIds('src/renderer/src/components/SomeThing.ts', preload)).toEqual([
      'no-restricted-syntax'
    ])
  }, 60_000)

  it('lets stores call routes, the start-up create the bridge, and anyone tell a BridgeError', async () => {
    expect(await ruleIds('src/renderer/src/stores/someStore.ts', calling)).toEqual([])
    const start = `import { useBridge } from './api/bridge'
useBridge()
`
    expect(await ruleIds('src/renderer/src/main.ts', start)).toEqual([])
    const errors = `import { BridgeError } from '@renderer/api/bridge'
export const isGone = (e: unknown) => e instanceof BridgeError && e.code === 'session_not_found'
`
    expect(await ruleIds('src/renderer/src/components/chat/SomeHelper.ts', errors)).toEqual([])
  }, 60_000)

  it('still keeps node and main code out of every renderer file, stores included', async () => {
    const node = `import { readFileSync } from 'node:fs'
export const read = () => readFileSync('x')
`
    expect(await ruleIds('src/renderer/src/components/SomeThing.ts', node)).toEqual(['no-restricted-imports'])
    expect(await ruleIds('src/renderer/src/stores/someStore.ts', node)).toEqual(['no-restricted-imports'])
  }, 60_000)
})
