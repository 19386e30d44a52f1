import { existsSync } from 'node:fs'
import { join } from 'node:path'
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

describe('Settings › automatic backups', () => {
  it('saves the days and the folder, lists the backups there and restores one after asking', async () => {
    const wrapper = await mountWith(DataBackup)
    const { presenters } = bridge!
    const folder = join(presenters.platform.userDataDir, 'elsewhere')
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
