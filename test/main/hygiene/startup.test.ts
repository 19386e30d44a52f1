import { spawn } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters } from '../../../src/main/presenter'
import { processStartTime } from '../../../src/main/presenter/hygiene/startTime'
import { useTempDirs } from '../helpers/tempDir'
import { isAlive, onLinux } from '../sandbox/harness'
import { until } from '../../helpers/until'

const tempDir = useTempDirs()

describe.skipIf(process.platform === 'win32')('start-up hygiene in the composition root (POSIX)', () => {
  it('creates the data folder 0700 and its database 0600, and never widens a mode the user chose', async () => {
    const dataDir = join(tempDir(), 'data')
    const first = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
    await first.dispose()
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
    expect(statSync(join(dataDir, 'deepchat.db')).mode & 0o777).toBe(0o600)
    // A read-only database and a shared folder stay as the user set them.
    chmodSync(join(dataDir, 'deepchat.db'), 0o444)
    chmodSync(dataDir, 0o755)
    writeFileSync(join(dataDir, 'secrets.json'), '{}')
    chmodSync(join(dataDir, 'secrets.json'), 0o644)
    const again = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
    try {
      expect(statSync(join(dataDir, 'deepchat.db')).mode & 0o777).toBe(0o444)
      expect(statSync(dataDir).mode & 0o777).toBe(0o755)
      expect(statSync(join(dataDir, 'secrets.json')).mode & 0o777).toBe(0o644)
    } finally {
      await again.dispose()
    }
  })

  it.runIf(onLinux)('reaps the process groups a dead host recorded in the data folder', async () => {
    const dataDir = join(tempDir(), 'data')
    mkdirSync(join(dataDir, 'process-groups'), { recursive: true })
    const leftover = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' })
    try {
      const record = {
        host: { pid: 1, startTime: 'not-init' },
        mark: 'm',
        groups: [{ pid: leftover.pid, startTime: await processStartTime(leftover.pid!) }]
      }
      writeFileSync(join(dataDir, 'process-groups', '1-0.json'), JSON.stringify(record))
      const presenters = createPresenters(createNodePlatform({ dataDir, log: () => {} }), { log: () => {} })
      await until(() => !isAlive(leftover.pid!), { what: 'the leftover group is killed' })
      expect(existsSync(join(dataDir, 'process-groups', '1-0.json'))).toBe(false)
      await presenters.dispose()
    } finally {
      leftover.kill('SIGKILL')
    }
  })
})
