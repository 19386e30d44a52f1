import { describe, expect, it } from 'vitest'
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, DATABASE_FILE } from '../../../src/main/presenter'
import { useTempDirs } from '../helpers/tempDir'
import { SETTINGS_DEFAULTS } from '@shared/types/settings'

const tempDir = useTempDirs()
const quiet = { log: () => {} }

function boot(dataDir: string) {
  return createPresenters(createNodePlatform({ dataDir, log: () => {} }), quiet)
}

describe('ConfigPresenter', () => {
  it('returns defaults on a new data dir', async () => {
    const presenters = boot(tempDir())
    expect(presenters.config.getSettings()).toEqual({
      ...SETTINGS_DEFAULTS,
      language: 'en-US',
      theme: 'system'
    })
    await presenters.dispose()
  })

  it('keeps a setting across a restart of the presenters on the same data dir', async () => {
    const dataDir = tempDir()
    const first = boot(dataDir)
    first.config.updateSettings({ language: 'zh-CN', theme: 'dark' })
    await first.dispose()

    const second = boot(dataDir)
    expect(second.config.getSettings()).toEqual({ ...SETTINGS_DEFAULTS, language: 'zh-CN', theme: 'dark' })
    await second.dispose()
  })

  it('validates every write and keeps the old value on a bad one', async () => {
    const presenters = boot(tempDir())
    expect(() => presenters.config.updateSettings({ theme: 'purple' as never })).toThrow(/theme/)
    expect(() => presenters.config.updateSettings({ fontSize: 3 } as never)).toThrow()
    expect(presenters.config.getSettings().theme).toBe('system')
    await presenters.dispose()
  })

  it('checks the default workspace itself: a missing folder or the data folder is refused, blank clears it', async () => {
    const dataDir = tempDir()
    const presenters = boot(dataDir)
    const folder = tempDir()
    expect(presenters.config.updateSettings({ defaultWorkspaceDir: `${folder}/` }).defaultWorkspaceDir).toBe(
      folder
    )
    for (const bad of [join(folder, 'missing'), dataDir, 'relative'])
      expect(() => presenters.config.updateSettings({ defaultWorkspaceDir: bad })).toThrow(
        expect.objectContaining({ code: 'invalid_workspace' })
      )
    expect(presenters.config.getSettings().defaultWorkspaceDir).toBe(folder)
    expect(presenters.config.updateSettings({ defaultWorkspaceDir: '  ' }).defaultWorkspaceDir).toBe('')
    await presenters.dispose()
  })

  it('announces changes to the renderer with the changed keys', async () => {
    const presenters = boot(tempDir())
    const seen: unknown[] = []
    presenters.events.subscribe((name, payload) => seen.push({ name, payload }))
    presenters.config.updateSettings({ theme: 'light' })
    expect(seen).toEqual([
      {
        name: 'config.settings.changed',
        payload: {
          settings: { ...SETTINGS_DEFAULTS, language: 'en-US', theme: 'light' },
          changedKeys: ['theme']
        }
      }
    ])
    await presenters.dispose()
  })

  it('stores domain documents validated with their own schema', async () => {
    const presenters = boot(tempDir())
    const Doc = z.object({ servers: z.array(z.string()) })
    expect(presenters.config.getDocument('mcp.servers', Doc, { servers: [] })).toEqual({ servers: [] })
    presenters.config.setDocument('mcp.servers', Doc, { servers: ['a'] })
    expect(presenters.config.getDocument('mcp.servers', Doc, { servers: [] })).toEqual({ servers: ['a'] })
    expect(() => presenters.config.setDocument('mcp.servers', Doc, { servers: [1] } as never)).toThrow(
      /servers/
    )
    await presenters.dispose()
  })

  it('never writes a secret in clear into the settings store', async () => {
    const dataDir = tempDir()
    const presenters = boot(dataDir)
    const secret = 'sk-live-SECRET-1234567890abcdef'
    await presenters.config.setSecret('provider.openai.apiKey', secret)
    presenters.config.updateSettings({ theme: 'dark' })
    expect(await presenters.config.getSecret('provider.openai.apiKey')).toBe(secret)

    // Every byte of the SQLite store (db, WAL, shm) is free of the secret.
    const rows = presenters.sqlite.db.prepare('SELECT key, value_json FROM settings').all()
    expect(JSON.stringify(rows)).not.toContain(secret)
    await presenters.dispose()
    const storeFiles = readdirSync(dataDir).filter((f) => f.startsWith(DATABASE_FILE))
    expect(storeFiles.length).toBeGreaterThan(0)
    for (const file of storeFiles) expect(readFileSync(join(dataDir, file)).includes(secret)).toBe(false)

    // Headless secrets live in their own file, readable by the owner only.
    expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o600)
  })

  it('survives a corrupted settings row by falling back to defaults', async () => {
    const presenters = boot(tempDir())
    presenters.sqlite.db
      .prepare("INSERT INTO settings (key, value_json, updated_at) VALUES ('settings', '{not json', 0)")
      .run()
    expect(presenters.config.getSettings()).toEqual({
      ...SETTINGS_DEFAULTS,
      language: 'en-US',
      theme: 'system'
    })
    await presenters.dispose()
  })

  it('sees a settings row written by another path at the next read, after serving repeated reads from one parse', async () => {
    const presenters = boot(tempDir())
    presenters.config.updateSettings({ theme: 'dark' })
    const first = presenters.config.getSettings()
    // Unchanged row: the same parsed object, frozen because every caller shares it.
    expect(presenters.config.getSettings()).toBe(first)
    expect(Object.isFrozen(first) && Object.isFrozen(first.disabledAgentTools)).toBe(true)
    expect(() => (first.disabledAgentTools as string[]).push('exec')).toThrow(TypeError)
    // A writer that is not ConfigPresenter (a restore, a direct SQL update) changes the row.
    presenters.sqlite.db
      .prepare("UPDATE settings SET value_json = ? WHERE key = 'settings'")
      .run(JSON.stringify({ ...first, theme: 'light', disabledAgentTools: ['exec'] }))
    expect(presenters.config.getSettings()).toMatchObject({ theme: 'light', disabledAgentTools: ['exec'] })
    presenters.sqlite.db.prepare("DELETE FROM settings WHERE key = 'settings'").run()
    expect(presenters.config.getSettings()).toEqual({ ...SETTINGS_DEFAULTS })
    expect(presenters.config.updateSettings({ theme: 'dark' }).theme).toBe('dark')
    expect(presenters.config.getSettings().theme).toBe('dark')
    await presenters.dispose()
  })
})

describe('ConfigPresenter patches', () => {
  it('changes only the keys in the patch', async () => {
    const presenters = boot(tempDir())
    presenters.config.updateSettings({ language: 'zh-CN' })
    presenters.config.updateSettings({ theme: 'dark' })
    expect(presenters.config.getSettings()).toEqual({
      ...SETTINGS_DEFAULTS,
      language: 'zh-CN',
      theme: 'dark'
    })
    await presenters.dispose()
  })

  it('keeps valid settings when one stored value is invalid', async () => {
    const presenters = boot(tempDir())
    presenters.sqlite.db
      .prepare("INSERT INTO settings (key, value_json, updated_at) VALUES ('settings', ?, 0)")
      .run(JSON.stringify({ language: 'zh-CN', theme: 'neon' }))
    expect(presenters.config.getSettings()).toEqual({
      ...SETTINGS_DEFAULTS,
      language: 'zh-CN',
      theme: 'system'
    })
    await presenters.dispose()
  })
})
