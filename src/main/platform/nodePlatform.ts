import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { FileSecretStore } from './fileSecretStore'
import type { Platform } from './types'
import { httpOnlyOpener } from './externalUrl'
import { APP_NAME, APP_VERSION } from '../appMeta'

/** Platform for the headless host and for tests: plain Node, no Electron. */
export function createNodePlatform(options: {
  dataDir: string
  log?: (line: string) => void
  /** The headless host's restart of its back end; tests leave it out. */
  restartBackEnd?: () => void
}): Platform {
  // Private from the start (an existing folder keeps the modes its user gave it).
  mkdirSync(options.dataDir, { recursive: true, mode: 0o700 })
  const log = options.log ?? ((line: string) => console.log(line))
  const secretsFile = join(options.dataDir, 'secrets.json')
  return {
    kind: 'node',
    appName: APP_NAME,
    appVersion: APP_VERSION,
    userDataDir: options.dataDir,
    versions: { node: process.versions.node, electron: null, chrome: null },
    secrets: new FileSecretStore(secretsFile),
    secretsFile,
    // Headless: the user is at a browser already; best effort to open the system one.
    openExternal: httpOnlyOpener(async (href) => {
      const opener =
        process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open'
      try {
        await execa(opener, [href], { detached: true, stdio: 'ignore' })
      } catch {
        log(`open this link: ${href}`)
      }
    }),
    notify(title, body) {
      log(`[notice] ${title}: ${body}`)
    },
    ...(options.restartBackEnd ? { restartBackEnd: () => (options.restartBackEnd!(), true) } : {})
  }
}
