import { PROTECTED_WORKSPACE_ENTRIES } from '../permission/boundary'
import { isInside } from '../permission/paths'
import type { SandboxProfile } from './profile'

export const SANDBOX_EXEC = '/usr/bin/sandbox-exec'

/** The profile's last rule: connecting, sending or binding to any Unix socket path is refused. */
export const SEATBELT_SOCKET_GUARD = '(deny network* (local unix-socket) (remote unix-socket))'

export interface SeatbeltExtras {
  /** The app's data folder: always denied (the scratch workspace inside it excepted). */
  dataDir: string | null
  /** Every secret path under home and the secrets files, existing or not (denying a missing path costs nothing here). */
  secretPaths: string[]
  /** Where commands may still write besides a writable workspace (the user's temp folder). */
  tempDirs: string[]
}

/**
 * The macOS seatbelt profile for one command: same intent as the bwrap one. Rules are ordered so
 * a narrower rule always comes after the wider one it overrides; that holds whether seatbelt
 * lets the last matching rule or the most specific one win.
 */
export function seatbeltProfile(profile: SandboxProfile, extras: SeatbeltExtras): string {
  const ws = profile.workspaceDir
  const dataDir = extras.dataDir
  const workspaceInData = !!dataDir && profile.scratchWorkspace
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny network*)',
    '; Keychain items through securityd',
    '(deny mach-lookup (global-name "com.apple.SecurityServer") (global-name "com.apple.securityd.xpc"))'
  ]
  // Home is hidden by content (file metadata stays readable so path lookups keep working).
  if (profile.home && !isInside(profile.home, ws))
    lines.push(`(deny file-read-data ${subpath(profile.home)})`)
  if (dataDir && workspaceInData) lines.push(`(deny file-read* file-write* ${subpath(dataDir)})`)
  // Seatbelt judges real paths: the toolchains' real folders.
  const readable = [ws, ...new Set(profile.toolchains.map((bind) => bind.source))]
  lines.push(`(allow file-read* ${readable.map(subpath).join(' ')})`)
  lines.push('(deny file-write*)')
  const writable = [...(profile.writableWorkspace ? [ws] : []), ...extras.tempDirs]
  if (writable.length) lines.push(`(allow file-write* ${writable.map(subpath).join(' ')})`)
  lines.push(
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/") (regex #"^/dev/ttys[0-9]+$"))'
  )
  const protectedEntries = [...profile.protectedExisting, ...profile.protectedMissing]
  if (protectedEntries.length) lines.push(`(deny file-write* ${protectedEntries.map(subpath).join(' ')})`)
  // Seatbelt can do what bwrap cannot: refuse creating a protected name in any folder.
  if (profile.writableWorkspace) lines.push(`(deny file-write* (regex ${protectedNamesRegex(ws)}))`)
  if (dataDir && !workspaceInData) lines.push(`(deny file-read* file-write* ${subpath(dataDir)})`)
  if (extras.secretPaths.length)
    lines.push(`(deny file-read* file-write* ${extras.secretPaths.map(subpath).join(' ')})`)
  // No Unix socket anywhere, the workspace's included (as under bwrap's seccomp filter): network*
  // above covers them already; said last so that no rule added later can reopen them.
  lines.push(SEATBELT_SOCKET_GUARD)
  return `${lines.join('\n')}\n`
}

/**
 * A regex literal matching every path under `workspace` that has a part named like a protected
 * entry, in any case (`<ws>/a/.VSCode/tasks.json`).
 */
export function protectedNamesRegex(workspace: string): string {
  const anyCase = (name: string): string =>
    [...name].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : `\\${c}`)).join('')
  const names = PROTECTED_WORKSPACE_ENTRIES.map(anyCase).join('|')
  return `#"^${regexLiteral(workspace)}/(.+/)?(${names})(/|$)"`
}

/** `text` matched literally in a seatbelt regex (`"` cannot appear in a `#"…"` literal: it is matched by `.`). */
function regexLiteral(text: string): string {
  return [...text].map((c) => (c === '"' ? '.' : /[\\^$.|?*+()[\]{}]/.test(c) ? `\\${c}` : c)).join('')
}

export function seatbeltArgs(profileText: string, shell: { file: string; args: string[] }): string[] {
  return ['-p', profileText, shell.file, ...shell.args]
}

function subpath(path: string): string {
  return `(subpath ${sbplString(path)})`
}

/** A string literal in the profile language (a Scheme string). */
export function sbplString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`
}
