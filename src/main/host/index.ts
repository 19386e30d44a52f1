import { join } from 'node:path'
import { parseHostArgs } from './args'
import { startHost } from './server'
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
  const platform = createNodePlatform({ dataDir: args.dataDir })
  const resources = bundledResources({ mode: 'headless', appRoot: appRootFromMainDir(import.meta.dirname) })
  const presenters = createPresenters(platform, {
    builtinSkillsDir: resources.skillsDir,
    resolveShellEnvAtLaunch: true
  })
  const router = createRouter(presenters, (message, error) => console.error(message, error ?? ''))
  const host = await startHost({
    router,
    events: presenters.events,
    rendererDir: join(import.meta.dirname, '../renderer'),
    port: args.port,
    log: (message) => console.error(message)
  })
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

process.on('unhandledRejection', (reason) => console.error('unhandled rejection:', reason))
void main()
