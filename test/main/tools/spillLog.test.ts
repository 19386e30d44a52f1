import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BackgroundProcessManager } from '../../../src/main/presenter/toolPresenter/agentTools/processManager'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

describe('spilled command output', () => {
  it('keeps the log under its cap: the tail stays, a first line says how much earlier output was dropped', async () => {
    const logDir = tempDir()
    const cap = 16 * 1024
    const lines = 6_000
    const expected = Array.from({ length: lines }, (_, i) => `line ${String(i).padStart(6, '0')}\n`).join('')
    const manager = new BackgroundProcessManager({ spillCapBytes: cap })
    const command = `node -e "for (let i = 0; i < ${lines}; i++) process.stdout.write('line ' + String(i).padStart(6, '0') + '\\n')"`
    const started = await manager.start({ sessionId: 's', command, cwd: logDir, logDir, keepStdin: false })
    expect(await manager.waitForExitOrYield('s', started.processId, 30_000)).toBe('exited')
    const info = manager.info('s', started.processId)
    expect(info.outputLength).toBe(expected.length)
    expect(info.logFile).toBe(join(logDir, `bgexec_${started.processId}.log`))
    const log = readFileSync(info.logFile!, 'utf8')
    expect(Buffer.byteLength(log)).toBeLessThanOrEqual(cap)
    const [note, ...rest] = log.split('\n')
    const kept = rest.join('\n')
    const dropped = Number(
      /^\[… (\d+) bytes of earlier output dropped: this log keeps only the last 16 KB\]$/.exec(note)?.[1]
    )
    expect(dropped + kept.length).toBe(expected.length)
    expect(kept).toBe(expected.slice(dropped))
    expect(kept.endsWith('line 005999\n')).toBe(true)
  })

  it('keeps the whole output when it stays under the cap', async () => {
    const logDir = tempDir()
    const manager = new BackgroundProcessManager()
    const started = await manager.start({
      sessionId: 's',
      command: 'seq 1 5000',
      cwd: logDir,
      logDir,
      keepStdin: false
    })
    await manager.waitForExitOrYield('s', started.processId, 30_000)
    const info = manager.info('s', started.processId)
    expect(readFileSync(info.logFile!, 'utf8')).toBe(
      Array.from({ length: 5000 }, (_, i) => `${i + 1}\n`).join('')
    )
  })
})
