// Whether this machine can run the sandbox tests. Without bubblewrap they are skipped (a fresh
// machine with Node alone passes `npm test`), and the run prints one line saying how many did not
// run (see requirementsReporter.ts). CI sets DEEPCHAT_REQUIRE_BWRAP=1: there they run and fail.
import { execFileSync } from 'node:child_process'
import { findOnPath } from '../../src/main/presenter/sandbox/detect'

declare module 'vitest' {
  interface TaskMeta {
    /** A program the test needs that may be missing here; the reporter counts its skips. */
    needs?: 'bubblewrap'
  }
}

/** Test options marking a test (or a describe) that needs bubblewrap. */
export const NEEDS_BWRAP = { meta: { needs: 'bubblewrap' as const } }

export const bwrapRequired = process.env.DEEPCHAT_REQUIRE_BWRAP === '1'

function bwrapWorks(): boolean {
  const bwrap = findOnPath('bwrap', process.env.PATH ?? '')
  if (!bwrap) return false
  try {
    execFileSync(bwrap, ['--ro-bind', '/', '/', 'true'], { stdio: 'ignore', timeout: 10_000 })
    return true
  } catch {
    return false // installed but unusable (user namespaces off): the same for these tests
  }
}

/** True on Linux without a working bwrap, unless CI requires it. */
export const withoutBwrap = process.platform === 'linux' && !bwrapRequired && !bwrapWorks()
