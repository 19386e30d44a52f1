import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { parseHostArgs } from './args'
import { listenHost, newHostToken, PortInUseError, type ListeningHost } from './server'
import { readHostState, writeHostState } from './hostState'
import { createNodePlatform } from '../platform/nodePlatform'
import { createPresenters, DATABASE_FILE } from '../presenter'
import { quickCheck } from '../presenter/sqlitePresenter/damaged'
import { DataFolderLockedError, lockDataFolder } from '../presenter/hygiene/dataFolderLock'
import { createRouter } from '../routes'
import { appRootFromMainDir, bundledResources } from '../appResources'

/** How long the start may spend on `PRAGMA quick_check` before it goes on without it. */
const QUICK_CHECK_BUDGET_MS = 5000

/** `npm run serve`: the whole back end under plain Node, UI served to a browser on loopback. */
async function main(): Promise<void> {
  let args
  try {
    args = parseHostArgs(process.argv.slice(2))
  } catch (error) {
    console.error(String(error instanceof Error ? error.message : error))
    process.exit(2)
  }
  const rendererDir = join(import.meta.dirname, '../renderer')
  const log = (message: string) => console.error(message)
  const cleanups: Array<() => Promise<void> | void> = []
  failStart = async (line) => {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {})
    console.error(line)
    process.exit(1)
  }
  // The port first: a busy one ends the run before the data folder is created or the database opened.
  const saved = readHostState(args.dataDir)
  const listening = await listenOrExit(rendererDir, args.port, saved?.port, log)
  cleanups.push(() => listening.close())
  // One host per data folder: a second one names the first and exits.
  mkdirSync(args.dataDir, { recursive: true, mode: 0o700 })
  const lock = await lockDataFolder(args.dataDir)
  cleanups.push(() => lock.release())

  const resources = bundledResources({ mode: 'headless', appRoot: appRootFromMainDir(import.meta.dirname) })
  // The same token (and port) as last time: an open tab reconnects to the restarted host.
  const token = saved?.token ?? newHostToken()
  const dataDir = args.dataDir

  /** The back end on the data folder as it is now (a staged restore is applied as it is built). */
  const startBackEnd = async () => {
    const platform = createNodePlatform({ dataDir, restartBackEnd: () => setImmediate(() => void restart()) })
    const check = await quickCheck(join(dataDir, DATABASE_FILE), { budgetMs: QUICK_CHECK_BUDGET_MS })
    if (check.status === 'timeout')
      log(`The database check took over ${QUICK_CHECK_BUDGET_MS / 1000} s and was skipped for this start.`)
    const built = createPresenters(platform, {
      builtinSkillsDir: resources.skillsDir,
      resolveShellEnvAtLaunch: true,
      damagedDatabase: check.status === 'damaged' ? { reason: check.reason ?? 'damaged' } : null
    })
    const router = createRouter(built, (message, error) => console.error(message, error ?? ''))
    const running = listening.attach({ router, events: built.events, token })
    built.backups.start()
    return { presenters: built, host: running }
  }

  let backEnd = await startBackEnd()
  cleanups.push(() => backEnd.presenters.dispose())
  const { host } = backEnd
  writeHostState(dataDir, { port: host.port, token })
  lock.setOrigin(host.origin)
  failStart = null
  console.log(`DeepChat Desk is serving on ${host.origin}`)
  console.log(`Data dir: ${dataDir}`)
  console.log(`Open: ${host.url}`)

  let stopping = false
  let restarting: Promise<void> | null = null
  // A restore confirmed in the browser: the page's reply has gone out (setImmediate above), then
  // the old back end closes its database and the new one applies the staged files as it opens.
  const restart = () =>
    (restarting ??= (async () => {
      listening.detach()
      await backEnd.presenters.dispose()
      if (stopping) return
      try {
        backEnd = await startBackEnd()
        console.log('The back end restarted to finish a restore; open pages reload.')
      } catch (error) {
        console.error(
          `DeepChat Desk could not restart: ${error instanceof Error ? error.message : String(error)}`
        )
        lock.release()
        process.exit(1)
      }
    })().finally(() => (restarting = null)))

  const stop = async () => {
    if (stopping) return
    stopping = true
    await restarting
    await host.close()
    await backEnd.presenters.dispose()
    lock.release()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

/** Set while the host starts: ends a failed start with one line and exit code 1, nothing left half-started. */
let failStart: ((line: string) => Promise<void>) | null = async (line) => {
  console.error(line)
  process.exit(1)
}

function startFailed(error: unknown): void {
  const line =
    error instanceof DataFolderLockedError
      ? error.message
      : `DeepChat Desk could not start: ${error instanceof Error ? error.message : String(error)}`
  if (failStart) void failStart(line)
  else console.error('unhandled rejection:', error)
}

/**
 * The port asked for, else last time's (another free one if something else took it meanwhile),
 * else any. A port asked for that is busy ends the run with one line and exit code 1.
 */
async function listenOrExit(
  rendererDir: string,
  asked: number | undefined,
  previous: number | undefined,
  log: (message: string) => void
): Promise<ListeningHost> {
  try {
    return await listenHost({ rendererDir, port: asked ?? previous ?? 0, log })
  } catch (error) {
    if (!(error instanceof PortInUseError)) throw error
    if (asked === undefined && previous !== undefined) {
      log(`Port ${previous} (used last time) is taken: serving on another one; reopen the printed URL.`)
      return listenHost({ rendererDir, port: 0, log })
    }
    console.error(error.message)
    process.exit(1)
  }
}

process.on('unhandledRejection', startFailed)
main().catch(startFailed)
