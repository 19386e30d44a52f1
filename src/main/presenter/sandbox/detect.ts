import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { spawn, type StdioOptions } from 'node:child_process'
import { seccompSupported, socketGuardFilter } from './seccomp'
import { SANDBOX_EXEC } from './seatbelt'
import type { SandboxStatus } from './types'

/** A usable sandbox, with the program that runs it. */
export type DetectedSandbox = SandboxStatus & { program?: string }

export interface DetectOptions {
  platform?: NodeJS.Platform
  /** Where to look for bwrap (default: this process's PATH). */
  pathEnv?: string
}

const cache = new Map<string, Promise<DetectedSandbox>>()

/**
 * Which sandbox this machine offers. Linux: bwrap on PATH and a probe run that works (user
 * namespaces may be off), with the socket filter when a probe with it works too; macOS:
 * sandbox-exec; elsewhere none. The probe runs once per process.
 */
export function detectSandbox(options: DetectOptions = {}): Promise<DetectedSandbox> {
  const platform = options.platform ?? process.platform
  const pathEnv = options.pathEnv ?? process.env.PATH ?? ''
  const key = `${platform}\0${pathEnv}`
  let found = cache.get(key)
  if (!found) {
    found = probe(platform, pathEnv)
    cache.set(key, found)
  }
  return found
}

async function probe(platform: NodeJS.Platform, pathEnv: string): Promise<DetectedSandbox> {
  if (platform === 'darwin') {
    return isExecutable(SANDBOX_EXEC)
      ? { kind: 'seatbelt', available: true, program: SANDBOX_EXEC, socketGuard: 'seatbelt' }
      : {
          kind: 'none',
          available: false,
          reason: `${SANDBOX_EXEC} is missing`,
          reasonCode: 'seatbelt_missing',
          socketGuard: 'none'
        }
  }
  if (platform !== 'linux')
    return {
      kind: 'none',
      available: false,
      reason: `no sandbox on ${platform}: commands are judged by the classifier alone`,
      reasonCode: 'unsupported_platform',
      reasonParams: { platform },
      socketGuard: 'none'
    }
  const bwrap = findOnPath('bwrap', pathEnv)
  if (!bwrap)
    return {
      kind: 'none',
      available: false,
      reason: 'bubblewrap (bwrap) is not installed',
      reasonCode: 'bwrap_missing',
      socketGuard: 'none'
    }
  if (seccompSupported() && (await probeBwrap(bwrap, socketGuardFilter())).ok)
    return { kind: 'bwrap', available: true, program: bwrap, socketGuard: 'seccomp' }
  const run = await probeBwrap(bwrap)
  if (!run.ok) {
    const detail = run.stderr.trim().split('\n')[0]
    return {
      kind: 'none',
      available: false,
      reason: `bwrap does not work here (user namespaces off?): ${detail}`,
      reasonCode: 'bwrap_broken',
      reasonParams: { detail },
      socketGuard: 'none'
    }
  }
  return { kind: 'bwrap', available: true, program: bwrap, socketGuard: 'none' }
}

/** Runs `true` under bwrap, with `filter` loaded from fd 3 when given. */
function probeBwrap(bwrap: string, filter?: Buffer): Promise<{ ok: boolean; stderr: string }> {
  const args = ['--ro-bind', '/', '/', ...(filter ? ['--seccomp', '3'] : []), 'true']
  // child_process rather than execa: its timeout needs no AbortSignal (the renderer tests run this under happy-dom's).
  return new Promise((resolve) => {
    const stdio: StdioOptions = filter ? ['ignore', 'ignore', 'pipe', 'pipe'] : ['ignore', 'ignore', 'pipe']
    const child = spawn(bwrap, args, { timeout: 10_000, stdio })
    let stderr = ''
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const fd3 = child.stdio[3] as NodeJS.WritableStream | undefined
    fd3?.on('error', () => {})
    if (filter) fd3?.end(filter)
    child.on('error', (error) => resolve({ ok: false, stderr: error.message }))
    child.on('close', (code) => resolve({ ok: code === 0, stderr }))
  })
}

export function findOnPath(program: string, pathEnv: string): string | null {
  for (const dir of pathEnv.split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, program)
    if (isExecutable(candidate)) return candidate
  }
  return null
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}
