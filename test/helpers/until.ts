import { vi } from 'vitest'

/**
 * Waits until `check` holds: it returns anything but `false` and does not throw. Checked at
 * once, then every `intervalMs` (vi.waitFor); past `timeoutMs` the last failure is thrown, a
 * `false` as "timed out waiting until <what>". Every wait-until of the tests goes through here.
 */
export async function until(
  check: () => unknown,
  { what = 'the condition held', timeoutMs = 10_000, intervalMs = 20 } = {}
): Promise<void> {
  await vi.waitFor(
    async () => {
      if ((await check()) === false) throw new Error(`timed out waiting until ${what}`)
    },
    { timeout: timeoutMs, interval: intervalMs }
  )
}
