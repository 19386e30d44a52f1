import { execa } from 'execa'
import { findOnPath } from '../sandbox/detect'

let setpriv: Promise<string | null> | undefined

/**
 * On Linux, `setpriv --pdeathsig KILL` around a command run on the host, so its shell dies when
 * the host does (the shell's own children are reaped at the next start instead). Unchanged
 * where setpriv is missing or too old for `--pdeathsig`.
 */
export async function dieWithHost(
  shell: { file: string; args: string[] },
  platform: NodeJS.Platform = process.platform
): Promise<{ file: string; args: string[] }> {
  if (platform !== 'linux') return shell
  setpriv ??= probeSetpriv()
  const program = await setpriv
  return program ? { file: program, args: ['--pdeathsig', 'KILL', '--', shell.file, ...shell.args] } : shell
}

async function probeSetpriv(): Promise<string | null> {
  const program = findOnPath('setpriv', process.env.PATH ?? '/usr/bin:/bin')
  if (!program) return null
  const run = await execa(program, ['--pdeathsig', 'KILL', '--', 'true'], {
    reject: false,
    stdin: 'ignore',
    timeout: 5_000
  })
  return run.exitCode === 0 ? program : null
}
