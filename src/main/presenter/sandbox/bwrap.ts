import { join } from 'node:path'
import type { SandboxProfile } from './profile'

/**
 * bubblewrap arguments for one command. Mounts apply in order, later ones on top:
 * the whole file system read-only, private /dev /proc /tmp /run, home hidden, toolchains shown
 * read-only, the workspace (read-only or writable), its protected entries read-only, then the
 * app's data folder and every secret masked last so no earlier bind can show them again.
 */
export function bwrapArgs(
  profile: SandboxProfile,
  shell: { file: string; args: string[] },
  cwd: string,
  extras: {
    gitExclude?: string
    seccompFd?: number
    /** A command preview: the workspace's copy, shown at the workspace's path. */
    workspaceSource?: string
    /** A command preview: writable host folders shown instead of these hidden ones (to see what it wrote there). */
    scratch?: Record<string, string>
  } = {}
): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc']
  const hidden = [...profile.hiddenDirs, ...(profile.home ? [profile.home] : [])].sort(
    (a, b) => a.length - b.length
  )
  for (const dir of hidden) {
    const scratch = extras.scratch?.[dir]
    args.push(...(scratch ? ['--bind', scratch, dir] : ['--tmpfs', dir]))
  }
  // `-try`: a toolchain folder removed since the profile was made is skipped, not an error.
  for (const { source, target } of profile.toolchains) args.push('--ro-bind-try', source, target)
  const dataDir = profile.dataDir
  const workspaceInData = !!dataDir && profile.scratchWorkspace
  // A scratch workspace lives in the data folder: mask the folder first, show the workspace in
  // it, and only then make the mask read-only (bwrap must create the workspace's mount point).
  if (dataDir && workspaceInData) args.push('--tmpfs', dataDir)
  args.push(
    profile.writableWorkspace ? '--bind' : '--ro-bind',
    extras.workspaceSource ?? profile.workspaceDir,
    profile.workspaceDir
  )
  for (const entry of profile.protectedExisting) args.push('--ro-bind', entry, entry)
  // bwrap leaves an empty stub file on the host for these; the Sandbox removes it afterwards.
  for (const entry of profile.protectedMissing) args.push('--ro-bind', '/dev/null', entry)
  // git inside would list those stubs as untracked files: an exclude file that names them.
  if (extras.gitExclude)
    args.push('--ro-bind', extras.gitExclude, join(profile.workspaceDir, '.git', 'info', 'exclude'))
  if (dataDir && !workspaceInData) args.push(...emptyFolder(dataDir))
  if (dataDir && workspaceInData) args.push('--remount-ro', dataDir)
  for (const dir of profile.maskedDirs) args.push(...emptyFolder(dir))
  for (const file of profile.maskedFiles) args.push('--ro-bind', '/dev/null', file)
  args.push(
    // Root in the sandbox must not unmount the masks.
    '--cap-drop',
    'ALL',
    '--unshare-net',
    '--unshare-pid',
    '--unshare-ipc',
    // The sandbox dies with the host; a new session keeps it off the host's terminal.
    '--die-with-parent',
    '--new-session',
    // The socket filter (seccomp.ts), read from this fd: no Unix socket outside reachable.
    ...(extras.seccompFd === undefined ? [] : ['--seccomp', String(extras.seccompFd)]),
    '--chdir',
    cwd,
    '--',
    shell.file,
    ...shell.args
  )
  return args
}

/** An empty, read-only folder over `dir`. */
function emptyFolder(dir: string): string[] {
  return ['--tmpfs', dir, '--remount-ro', dir]
}
