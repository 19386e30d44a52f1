import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BridgeClient, setBridgeForTesting } from '@renderer/api/bridge'
import type { RouteResult } from '@shared/contracts/envelope'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { createRouter } from '../../../src/main/routes'
import { afterEach, describe, expect, it } from 'vitest'
import { flushPromises, mount } from '@vue/test-utils'
import { createPinia, setActivePinia } from 'pinia'
import StorageNotice from '@renderer/components/desktop/StorageNotice.vue'
import DataBackup from '@renderer/components/settings/data/DataBackup.vue'
import { useSettingsStore } from '@renderer/stores/settings'
import { createAppI18n } from '@renderer/i18n'
import { useRealBridge } from '../helpers/realBridge'

let bridge: ReturnType<typeof useRealBridge> | undefined
afterEach(async () => {
  await bridge?.dispose()
  bridge = undefined
})

async function mountWith<T>(component: T) {
  bridge = useRealBridge()
  const pinia = createPinia()
  setActivePinia(pinia)
  await useSettingsStore().load()
  const wrapper = mount(component as never, { global: { plugins: [pinia, createAppI18n('en-US')] } })
  await flushPromises()
  return wrapper
}

describe('the storage notice', () => {
  it("shows the back end's words while the data folder cannot be written, and goes once it can", async () => {
    const wrapper = await mountWith(StorageNotice)
    expect(wrapper.find('[data-testid="storage-fault"]').exists()).toBe(false)
    const { storage, platform } = bridge!.presenters
    storage.recognize(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))
    await flushPromises()
    expect(wrapper.get('[data-testid="storage-fault"]').text()).toBe(
      `The disk holding ${platform.userDataDir} is full. Free some space there, then send again; everything saved before is kept.`
    )
    storage.assertWritable() // the temp disk has room: the fault is cleared
    await flushPromises()
    expect(wrapper.find('[data-testid="storage-fault"]').exists()).toBe(false)
  })
})

/** Presenters started on a data folder prepared first (the real-bridge helper makes a fresh one). */
function bridgeOn(dataDir: string): Presenters {
  const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
  const router = createRouter(presenters)
  setBridgeForTesting(
    new BridgeClient({
      kind: 'electron',
      invoke: async (route, input) =>
        structuredClone(
          await router.invoke(route, structuredClone(input), { transport: 'test', clientId: 'r' })
        ) as RouteResult,
      on: (listener) =>
        presenters.events.subscribe((name, payload) => listener(name, structuredClone(payload)))
    })
  )
  return presenters
}

describe('the damaged-database notice', () => {
  it('says where the damaged file went and restores the latest backup when asked', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'deepchat-renderer-damaged-'))
    try {
      const first = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
      first.sessions.create({ title: 'Saved chat' })
      const copy = (await first.backups.runIfDue())!
      await first.dispose()
      writeFileSync(join(dataDir, 'deepchat.db'), 'garbage '.repeat(5000))
      const presenters = bridgeOn(dataDir)
      const movedTo = presenters.storage.status().damaged!.movedTo
      const pinia = createPinia()
      setActivePinia(pinia)
      const wrapper = mount(StorageNotice, { global: { plugins: [pinia, createAppI18n('en-US')] } })
      await flushPromises()
      expect(wrapper.get('[data-testid="storage-damaged"] p').text()).toBe(
        `The database was damaged (file is not a database) and was moved to ${movedTo}. The app started with an empty one.`
      )
      expect(wrapper.get('[data-testid="storage-damaged"]').text()).toContain(`Latest backup: ${copy}`)
      await wrapper.get('[data-testid="storage-restore-latest"]').trigger('click')
      await flushPromises()
      expect(wrapper.get('[data-testid="storage-restore-status"]').text()).toBe(
        'The backup is ready: restart the app to finish restoring.'
      )
      expect(existsSync(join(dataDir, 'restore-pending.db'))).toBe(true)
      wrapper.unmount()
      setBridgeForTesting(undefined)
      await presenters.dispose()
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})

describe('Settings › automatic backups', () => {
  it('saves the days and the folder, lists the backups there and restores one after asking', async () => {
    const wrapper = await mountWith(DataBackup)
    const { presenters } = bridge!
    const folder = join(presenters.platform.userDataDir, 'elsewhere')
    mkdirSync(folder) // a folder is picked, so it exists
    expect(wrapper.get('[data-testid="backup-list-empty"]').text()).toBe('No backups yet.')
    await wrapper.get('[data-testid="auto-backup-days"]').setValue(3)
    await wrapper.get('[data-testid="backup-folder"]').setValue(folder)
    await wrapper.get('[data-testid="auto-backup"]').trigger('submit')
    await flushPromises()
    expect(presenters.config.getSettings()).toMatchObject({ autoBackupDays: 3, backupFolder: folder })
    expect(wrapper.get('[data-testid="auto-backup-status"]').text()).toBe('Saved.')

    const made = (await presenters.backups.runIfDue())!
    expect(made.startsWith(folder)).toBe(true)
    await wrapper.get('[data-testid="auto-backup"]').trigger('submit')
    await flushPromises()
    expect(wrapper.get('[data-testid="backup-list"]').text()).toContain(made)
    expect(wrapper.get('[data-testid="backup-list"]').text()).toContain('Daily database copy')
    await wrapper.get('[data-testid="backup-restore"]').trigger('click')
    expect((wrapper.get('[data-testid="restore-path"]').element as HTMLInputElement).value).toBe(made)
    await wrapper.get('[data-testid="restore-confirm"]').trigger('click')
    await flushPromises()
    expect(wrapper.get('[data-testid="restore-status"]').text()).toBe(
      'The backup is ready: restart the app to finish restoring.'
    )
    expect(existsSync(join(presenters.platform.userDataDir, 'restore-pending.db'))).toBe(true)
  })

  it('explains a relative folder and keeps the setting', async () => {
    const wrapper = await mountWith(DataBackup)
    await wrapper.get('[data-testid="backup-folder"]').setValue('relative/folder')
    await wrapper.get('[data-testid="auto-backup"]').trigger('submit')
    await flushPromises()
    expect(wrapper.get('[data-testid="auto-backup-status"]').text()).toContain('an absolute path')
    expect(bridge!.presenters.config.getSettings().backupFolder).toBe('')
  })
})
