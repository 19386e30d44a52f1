import { join } from 'node:path'
import { parseHostArgs } from './args'
import { listenHost, newHostToken, PortInUseError, type ListeningHost } from './server'
import { readHostState, writeHostState } from './hostState'
import { createNodePlatform } from '../platform/nodePlatform'
import { createPresenters } from '../presenter'
import { createRouter } from '../routes'
import { appRootFromMainDir, bundledResources } from '../appResources'

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
  // The port first: a busy one ends the run before the data folder is touched.
  const saved = readHostState(args.dataDir)
  const listening = await listenOrExit(rendererDir, args.port, saved?.port, log)

  const platform = createNodePlatform({ dataDir: args.dataDir })
  const resources = bundledResources({ mode: 'headless', appRoot: appRootFromMainDir(import.meta.dirname) })
  const presenters = createPresenters(platform, {
    builtinSkillsDir: resources.skillsDir,
    resolveShellEnvAtLaunch: true
  })
  const router = createRouter(presenters, (message, error) => console.error(message, error ?? ''))
  // The same token (and port) as last time: an open tab reconnects to the restarted host.
  const token = saved?.token ?? newHostToken()
  const host = listening.attach({ router, events: presenters.events, token })
  writeHostState(args.dataDir, { port: host.port, token })
  console.log(`DeepChat Desk is serving on ${host.origin}`)
  console.log(`Data dir: ${args.dataDir}`)
  console.log(`Open: ${host.url}`)

  let stopping = false
  const stop = async () => {
    if (stopping) return
    stopping = true
    await host.close()
    await presenters.dispose()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
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

process.on('unhandledRejection', (reason) => console.error('unhandled rejection:', reason))
void main()
