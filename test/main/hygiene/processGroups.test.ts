import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ProcessGroupRegistry, reapOrphanedGroups } from '../../../src/main/presenter/hygiene/processGroups'
import { processStartTime } from '../../../src/main/presenter/hygiene/startTime'
import { useTempDirs } from '../helpers/tempDir'
import { isAlive, onLinux, pidsOf, startHost } from '../sandbox/harness'
import { until } from '../../helpers/until'

const tempDir = useTempDirs()

/** A pid that belonged to a process which has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' })
  await new Promise((resolve) => child.on('exit', resolve))
  return child.pid!
}

function recordedPids(dir: string): number[] {
  return readdirSync(dir).flatMap((name) =>
    (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { groups: { pid: number }[] }).groups.map(
      (g) => g.pid
    )
  )
}

describe.skipIf(!onLinux)(
  'reaping process groups left by a crashed host (Linux: /proc start times; macOS uses ps, not run here)',
  () => {
    it('kills the group a killed host left running, once the reaper starts', async () => {
      const root = tempDir()
      const registryDir = join(root, 'process-groups')
      const marker = ['sleep', `${5000 + (process.pid % 1000)}.5`]
      // The shell dies with the host (setpriv --pdeathsig); the sleep it started in the background does not.
      const { host, pid: groupId } = await startHost({
        command: `${marker.join(' ')} & wait`,
        cwd: root,
        logDir: root,
        home: root,
        registryDir
      })
      await until(() => existsSync(registryDir) && recordedPids(registryDir).includes(groupId), {
        what: 'the host recorded the group'
      })
      await until(() => pidsOf(marker).length === 1, { what: 'the background sleep runs' })
      const [sleepPid] = pidsOf(marker)
      try {
        host.kill('SIGKILL')
        await until(() => !isAlive(groupId), { what: 'the shell died with its host' })
        expect(isAlive(sleepPid)).toBe(true)
        const result = await reapOrphanedGroups(registryDir)
        expect(result.killed).toEqual([groupId])
        await until(() => !isAlive(sleepPid), { what: 'the leftover sleep is gone' })
        expect(readdirSync(registryDir)).toEqual([])
      } finally {
        if (isAlive(sleepPid)) process.kill(sleepPid, 'SIGKILL')
      }
    })

    it('leaves alone a recorded pid whose start time differs (the number was reused)', async () => {
      const root = tempDir()
      const stranger = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' })
      try {
        await until(() => isAlive(stranger.pid!), { what: 'the stranger runs' })
        const startTime = await processStartTime(stranger.pid!)
        expect(startTime).toMatch(/^\d+$/)
        writeFileSync(
          join(root, '1.json'),
          JSON.stringify({
            host: { pid: await deadPid(), startTime: '1' },
            mark: 'm',
            groups: [{ pid: stranger.pid, startTime: `${startTime}0` }]
          })
        )
        const result = await reapOrphanedGroups(root)
        expect(result).toEqual({ killed: [], reused: [stranger.pid] })
        expect(isAlive(stranger.pid!)).toBe(true)
        expect(existsSync(join(root, '1.json'))).toBe(false)
      } finally {
        stranger.kill('SIGKILL')
      }
    })

    it("leaves alone the members of a leaderless group that lack the host's mark (the group id went to someone else)", async () => {
      const root = tempDir()
      const marker = ['sleep', `${6000 + (process.pid % 1000)}.5`]
      // The shell leads a new group and exits at once; its background sleep stays in the group.
      const shell = spawn('bash', ['-c', `${marker.join(' ')} > /dev/null 2>&1 &`], {
        detached: true,
        stdio: 'ignore'
      })
      await new Promise((resolve) => shell.on('exit', resolve))
      await until(() => pidsOf(marker).length === 1, { what: 'the leaderless sleep runs' })
      const [sleepPid] = pidsOf(marker)
      try {
        writeFileSync(
          join(root, '2.json'),
          JSON.stringify({
            host: { pid: await deadPid(), startTime: '1' },
            mark: 'some-other-host',
            groups: [{ pid: shell.pid, startTime: '1' }]
          })
        )
        expect(await reapOrphanedGroups(root)).toEqual({ killed: [], reused: [] })
        expect(isAlive(sleepPid)).toBe(true)
      } finally {
        process.kill(sleepPid, 'SIGKILL')
      }
    })

    it('leaves the groups of a host that still runs', async () => {
      const root = tempDir()
      const child = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' })
      try {
        const registry = new ProcessGroupRegistry(root)
        await registry.record(child.pid!)
        const result = await reapOrphanedGroups(root)
        expect(result.killed).toEqual([])
        expect(isAlive(child.pid!)).toBe(true)
        expect(recordedPids(root)).toEqual([child.pid])
        await registry.release(child.pid!)
        expect(readdirSync(root)).toEqual([])
      } finally {
        child.kill('SIGKILL')
      }
    })

    it('drops unreadable records without killing anything', async () => {
      const root = tempDir()
      mkdirSync(root, { recursive: true })
      writeFileSync(join(root, '7.json'), '{not json')
      expect(await reapOrphanedGroups(root)).toEqual({ killed: [], reused: [] })
      expect(readdirSync(root)).toEqual([])
    })
  }
)
