import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
import { execFile } from 'node:child_process'
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
 * namespaces may be off); macOS: sandbox-exec; elsewhere none. The probe runs once per process.
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
      ? { kind: 'seatbelt', available: true, program: SANDBOX_EXEC }
      : { kind: 'none', available: false, reason: `${SANDBOX_EXEC} is missing` }
  }
  if (platform !== 'linux')
    return {
      kind: 'none',
      available: false,
      reason: `no sandbox on ${platform}: commands are judged by the classifier alone`
    }
  const bwrap = findOnPath('bwrap', pathEnv)
  if (!bwrap) return { kind: 'none', available: false, reason: 'bubblewrap (bwrap) is not installed' }
  // child_process rather than execa: its timeout needs no AbortSignal (the renderer tests run this under happy-dom's).
  const run = await new Promise<{ ok: boolean; stderr: string }>((resolve) =>
    execFile(bwrap, ['--ro-bind', '/', '/', 'true'], { timeout: 10_000 }, (error, _stdout, stderr) =>
      resolve({ ok: !error, stderr: String(stderr || error?.message || '') })
    )
  )
  if (!run.ok) {
    const detail = run.stderr.trim().split('\n')[0]
    return {
      kind: 'none',
      available: false,
      reason: `bwrap does not work here (user namespaces off?): ${detail}`
    }
  }
  return { kind: 'bwrap', available: true, program: bwrap }
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
