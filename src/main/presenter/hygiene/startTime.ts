import { readFileSync } from 'node:fs'
import { execa } from 'execa'

/**
 * When process `pid` started, as an opaque string to compare (null: no such process). Linux:
 * the start tick from `/proc/<pid>/stat`; macOS: `ps -o lstart`. A pid with a different start
 * time is another process that reused the number.
 */
export async function processStartTime(pid: number, platform: NodeJS.Platform = process.platform): Promise<string | null> {
  if (!Number.isInteger(pid) || pid <= 0) return null
  if (platform === 'linux') return linuxStartTime(pid)
  if (platform === 'darwin') {
    const run = await execa('ps', ['-o', 'lstart=', '-p', String(pid)], { reject: false, stdin: 'ignore' })
    const text = String(run.stdout ?? '').trim()
    return run.exitCode === 0 && text ? text : null
  }
  return null
}

function linuxStartTime(pid: number): string | null {
  let stat: string
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return null
  }
  // Fields after the command name (which may contain spaces and parentheses); starttime is field 22.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return fields[19] ?? null
}
