import { readFileSync } from 'node:fs'
import { execa } from 'execa'

/**
 * When process `pid` started, as an opaque string to compare (null: no such process, or a
 * zombie). Linux: the start tick from `/proc/<pid>/stat`; macOS: `ps -o lstart`. A pid with a
 * different start time is another process that reused the number.
 */
export async function processStartTime(
  pid: number,
  platform: NodeJS.Platform = process.platform
): Promise<string | null> {
  if (!Number.isInteger(pid) || pid <= 0) return null
  if (platform === 'linux') return linuxStartTime(pid)
  if (platform === 'darwin') {
    const run = await execa('ps', ['-o', 'stat=', '-o', 'lstart=', '-p', String(pid)], {
      reject: false,
      stdin: 'ignore'
    })
    const [state = '', ...started] = String(run.stdout ?? '')
      .trim()
      .split(/\s+/)
    return run.exitCode === 0 && started.length && !state.startsWith('Z') ? started.join(' ') : null
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
  // Fields after the command name (which may contain spaces and parentheses): state is field 3,
  // starttime field 22. A zombie has exited already.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return fields[0] === 'Z' ? null : (fields[19] ?? null)
}
