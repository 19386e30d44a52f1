import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import fg from 'fast-glob'
import picomatch from 'picomatch'
import { describe, expect, it } from 'vitest'
import type { Configuration } from 'electron-builder'
import { APP_ID } from '../../../src/main/appMeta'

// electron-builder's own loader and JSON schema (app-builder-lib, the library behind the CLI),
// reached through electron-builder so the version is the one `npm run dist` runs.
const root = join(import.meta.dirname, '..', '..', '..')
const requireFromBuilder = createRequire(
  createRequire(join(root, 'package.json')).resolve('electron-builder/package.json')
)
const { getConfig, validateConfiguration } = requireFromBuilder('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: string | null, fromOptions: unknown): Promise<Configuration>
  validateConfiguration(config: unknown, logger: unknown): Promise<void>
}
const { DebugLogger } = requireFromBuilder('builder-util') as {
  DebugLogger: new (enabled: boolean) => unknown
}

async function loadConfig(): Promise<Configuration> {
  return getConfig(root, null, null)
}

describe('electron-builder configuration', () => {
  it('loads through electron-builder and passes its schema; a typo would not', async () => {
    const config = await loadConfig()
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined()
    await expect(
      validateConfiguration({ ...config, mac: { ...config.mac, tagret: 'dmg' } }, new DebugLogger(false))
    ).rejects.toThrow(/configuration object that does not match the API schema/)
  })

  it('builds AppImage and deb, dmg for both Mac architectures, and an NSIS installer', async () => {
    const config = await loadConfig()
    // The app tells Windows the same id, or its notifications would not be attributed to it.
    expect(config.appId).toBe(APP_ID)
    expect(config.productName).toBe('DeepChat Desk')
    expect(config.linux?.target).toEqual(['AppImage', 'deb'])
    expect(config.mac?.target).toEqual([{ target: 'dmg', arch: ['arm64', 'x64'] }])
    expect(config.win?.target).toEqual([{ target: 'nsis', arch: ['x64'] }])
    expect(config.protocols).toEqual([{ name: 'DeepChat Desk link', schemes: ['deepchat-desk'] }])
    expect(config.fileAssociations).toEqual([])
    // deb needs a homepage and a maintainer (electron-builder's FpmTarget refuses to build otherwise).
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).homepage).toMatch(/^https:\/\//)
    expect(config.linux?.maintainer).toMatch(/<.+@.+>/)
  })

  it('flips the Electron fuses that close the usual ways in', async () => {
    expect((await loadConfig()).electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true
    })
  })

  it('unpacks the native SQLite module and the ripgrep binary that are really installed', async () => {
    const config = await loadConfig()
    const unpacked = picomatch(config.asarUnpack as string[], { dot: true })
    const sqlite = fg.sync('node_modules/better-sqlite3/build/Release/*.node', { cwd: root })
    const rg = fg.sync(`node_modules/@vscode/ripgrep-${process.platform}-${process.arch}/bin/*`, {
      cwd: root
    })
    const vec = fg.sync(
      `node_modules/sqlite-vec-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}/vec0.*`,
      {
        cwd: root
      }
    )
    expect(sqlite.length).toBeGreaterThan(0)
    expect(rg.length).toBeGreaterThan(0)
    expect(vec.length).toBeGreaterThan(0)
    for (const file of [...sqlite, ...rg, ...vec]) expect(unpacked(file), file).toBe(true)
    expect(unpacked('node_modules/zod/index.js')).toBe(false)
  })

  it('ships the skills and the icons the app looks for beside the asar, and installer icons that exist', async () => {
    const config = await loadConfig()
    const resources = config.extraResources as Array<{ from: string; to: string; filter?: string[] }>
    expect(resources.map(({ from, to }) => [from, to])).toEqual([
      ['resources/skills', 'skills'],
      ['build/icons', 'icons']
    ])
    for (const { from } of resources) expect(existsSync(join(root, from)), from).toBe(true)
    // What src/main/appResources.ts resolves inside <resources>/icons must pass the filter.
    const iconFilter = picomatch(resources[1].filter!)
    for (const file of ['icon.png', 'tray.png', 'tray@2x.png', 'trayTemplate.png', 'trayTemplate@2x.png']) {
      expect(iconFilter(file), file).toBe(true)
      expect(existsSync(join(root, 'build', 'icons', file)), file).toBe(true)
    }
    for (const icon of [config.mac?.icon, config.win?.icon, config.linux?.icon])
      expect(existsSync(join(root, String(icon))), String(icon)).toBe(true)
    // Only the build output goes into the asar (electron-builder adds production dependencies).
    expect(config.files).toEqual([{ filter: ['out/**/*', 'package.json', '!**/*.map'] }])
  })

  it('publishes to GitHub releases, which is where the updater looks', async () => {
    expect((await loadConfig()).publish).toEqual([
      { provider: 'github', owner: 'deepchat-desk', repo: 'deepchat-desk', releaseType: 'release' }
    ])
  })
})
