import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  appRootFromMainDir,
  asarUnpackedPath,
  bundledResources,
  sqliteNativeBinding
} from '../../../src/main/appResources'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()
const repoRoot = join(import.meta.dirname, '..', '..', '..')

describe('bundled resources', () => {
  it('finds skills and icons in the source tree for development and headless runs', () => {
    const appRoot = appRootFromMainDir(join(repoRoot, 'out', 'main'))
    expect(appRoot).toBe(repoRoot)
    for (const mode of ['dev', 'headless'] as const) {
      const resources = bundledResources({ mode, appRoot }, 'linux')
      expect(resources.skillsDir).toBe(join(repoRoot, 'resources', 'skills'))
      // The real tree has them: the built-in skills and the generated icons (npm run icons).
      expect(existsSync(join(resources.skillsDir, 'deepchat-settings', 'SKILL.md'))).toBe(true)
      expect(existsSync(resources.windowIcon)).toBe(true)
      expect(existsSync(resources.trayIcon)).toBe(true)
    }
  })

  it('finds them beside the asar in a packaged app, whatever the working directory', () => {
    const resourcesPath = tempDir()
    const appRoot = join(resourcesPath, 'app.asar')
    const linux = bundledResources({ mode: 'packaged', appRoot, resourcesPath }, 'linux')
    expect(linux.skillsDir).toBe(join(resourcesPath, 'skills'))
    expect(linux.trayIcon).toBe(join(resourcesPath, 'icons', 'tray.png'))
    expect(bundledResources({ mode: 'packaged', appRoot, resourcesPath }, 'darwin').trayIcon).toBe(
      join(resourcesPath, 'icons', 'trayTemplate.png')
    )
    expect(() => bundledResources({ mode: 'packaged', appRoot })).toThrow(/resourcesPath/)
  })

  it('points paths inside app.asar at app.asar.unpacked, on both separators', () => {
    expect(
      asarUnpackedPath('/opt/DeepChat Desk/resources/app.asar/node_modules/@vscode/ripgrep-linux-x64/bin/rg')
    ).toBe('/opt/DeepChat Desk/resources/app.asar.unpacked/node_modules/@vscode/ripgrep-linux-x64/bin/rg')
    expect(asarUnpackedPath('C:\\App\\resources\\app.asar\\node_modules\\rg.exe')).toBe(
      'C:\\App\\resources\\app.asar.unpacked\\node_modules\\rg.exe'
    )
    expect(asarUnpackedPath('/home/me/src/node_modules/rg')).toBe('/home/me/src/node_modules/rg')
  })
})

describe('better-sqlite3 binding choice', () => {
  it('uses the package lookup headless and packaged, and Electron’s own build in development', () => {
    const appRoot = tempDir()
    expect(sqliteNativeBinding({ mode: 'headless', appRoot })).toBeUndefined()
    expect(sqliteNativeBinding({ mode: 'packaged', appRoot, resourcesPath: appRoot })).toBeUndefined()
    expect(() => sqliteNativeBinding({ mode: 'dev', appRoot })).toThrow(/npm start/)

    const release = join(appRoot, '.electron-native', 'better-sqlite3', 'build', 'Release')
    mkdirSync(release, { recursive: true })
    writeFileSync(join(release, 'better_sqlite3.node'), '')
    expect(sqliteNativeBinding({ mode: 'dev', appRoot })).toBe(join(release, 'better_sqlite3.node'))
  })
})
