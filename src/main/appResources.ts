import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * How this process was started, which decides where bundled files live:
 * - `dev`: Electron from the source tree (`npm start`, `npm run dev`, the smoke test);
 * - `packaged`: an installed app, code inside `app.asar`, bundled files beside it in `process.resourcesPath`;
 * - `headless`: the host under plain Node (`npm run serve`), from the source tree.
 */
export type RunMode = 'dev' | 'packaged' | 'headless'

export interface AppLocation {
  mode: RunMode
  /** The folder holding package.json and `out/` (two levels above `out/main`). */
  appRoot: string
  /** Electron's `process.resourcesPath`; only read when packaged. */
  resourcesPath?: string
}

export interface BundledResources {
  /** Skills shipped with the app (`resources/skills` in the tree). */
  skillsDir: string
  /** Generated icons (`build/icons` in the tree, `npm run icons`). */
  iconsDir: string
  /** The window and About icon. */
  windowIcon: string
  /** The tray icon: a monochrome template image on macOS, the colour one elsewhere. */
  trayIcon: string
}

/**
 * The one place that knows where bundled files are. Packaged builds copy them next to the asar
 * through electron-builder's `extraResources` (electron-builder.yml: skills -> `skills`,
 * build/icons -> `icons`), because code inside an asar cannot hand a folder path to the OS.
 */
export function bundledResources(
  location: AppLocation,
  platform: NodeJS.Platform = process.platform
): BundledResources {
  const packaged = location.mode === 'packaged'
  if (packaged && !location.resourcesPath) throw new Error('a packaged app needs process.resourcesPath')
  const skillsDir = packaged
    ? join(location.resourcesPath!, 'skills')
    : join(location.appRoot, 'resources', 'skills')
  const iconsDir = packaged
    ? join(location.resourcesPath!, 'icons')
    : join(location.appRoot, 'build', 'icons')
  return {
    skillsDir,
    iconsDir,
    windowIcon: join(iconsDir, 'icon.png'),
    // macOS picks trayTemplate@2x.png beside it on Retina screens by itself.
    trayIcon: join(iconsDir, platform === 'darwin' ? 'trayTemplate.png' : 'tray.png')
  }
}

/** `out/main` -> the app root, in the tree and inside an asar alike. */
export function appRootFromMainDir(mainDir: string): string {
  return join(mainDir, '..', '..')
}

/**
 * Executables and native modules cannot run from inside an asar archive; electron-builder's
 * `asarUnpack` puts them in `app.asar.unpacked`. Paths computed by packages (ripgrep's
 * `rgPath`) still point into the archive, so they are rewritten here.
 */
export function asarUnpackedPath(path: string): string {
  return path.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1')
}

/**
 * Which better-sqlite3 binary to load:
 * - headless: the one npm built for the system Node (undefined: the package's own lookup);
 * - packaged: the one electron-builder rebuilt for Electron inside the app (the package's own lookup);
 * - dev: Electron's own build in `.electron-native/` (scripts/electronNative.mjs), never the system
 *   Node's — that one has another ABI and would fail to load with a cryptic error.
 */
export function sqliteNativeBinding(
  location: AppLocation,
  exists: (path: string) => boolean = existsSync
): string | undefined {
  if (location.mode !== 'dev') return undefined
  const electronBuild = join(
    location.appRoot,
    '.electron-native',
    'better-sqlite3',
    'build',
    'Release',
    'better_sqlite3.node'
  )
  if (!exists(electronBuild)) {
    throw new Error(
      `better-sqlite3 for Electron is missing (${electronBuild}): start the app with npm start, which builds it`
    )
  }
  return electronBuild
}
