import { spawn } from 'node:child_process'
import { readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DataFolderLockedError, lockDataFolder } from '../../../src/main/presenter/hygiene/dataFolderLock'
import { processStartTime } from '../../../src/main/presenter/hygiene/startTime'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

describe.runIf(process.platform === 'linux')('the data folder lock', () => {
  it('refuses while its holder runs, naming it, and is taken over once a reused pid has another start time', async () => {
    const dataDir = tempDir()
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' })
    try {
      const startTime = await processStartTime(holder.pid!)
      const record = { pid: holder.pid, startTime, url: 'http://127.0.0.1:4567' }
      writeFileSync(join(dataDir, 'host.lock'), JSON.stringify(record))
      const refused = await lockDataFolder(dataDir).catch((error: unknown) => error)
      expect(refused).toBeInstanceOf(DataFolderLockedError)
      expect((refused as Error).message).toBe(
        `Another DeepChat Desk host (pid ${holder.pid} at http://127.0.0.1:4567) is using the data folder ${dataDir}: open that one, or stop it first.`
      )
      // The same pid with another start time is another program: the lock is stale.
      writeFileSync(join(dataDir, 'host.lock'), JSON.stringify({ ...record, startTime: '1' }))
      const lock = await lockDataFolder(dataDir)
      expect(JSON.parse(readFileSync(join(dataDir, 'host.lock'), 'utf8')).pid).toBe(process.pid)
      lock.release()
    } finally {
      holder.kill('SIGKILL')
    }
  })

  it('waits out an empty lock a starting host has just made, and takes over an old empty one', async () => {
    const dataDir = tempDir()
    const file = join(dataDir, 'host.lock')
    writeFileSync(file, '')
    await expect(lockDataFolder(dataDir)).rejects.toThrow(/Another DeepChat Desk host is starting/)
    const old = new Date(Date.now() - 60_000)
    utimesSync(file, old, old)
    const lock = await lockDataFolder(dataDir)
    lock.release()
  })
})
