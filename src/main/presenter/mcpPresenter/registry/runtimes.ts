import { access, constants } from 'node:fs/promises'
import { delimiter, join } from 'node:path'

export type RegistryRuntime = 'npx' | 'uvx' | 'docker'
export const REGISTRY_RUNTIMES: readonly RegistryRuntime[] = ['npx', 'uvx', 'docker']

/**
 * Which runtimes a registry package needs are on the PATH servers start with (the login
 * shell's), so the install form can say "docker is not installed" instead of a failed start.
 */
export async function findRuntimes(path: string | undefined): Promise<Record<RegistryRuntime, boolean>> {
  const dirs = (path ?? '').split(delimiter).filter(Boolean)
  const names =
    process.platform === 'win32' ? (name: string) => [`${name}.cmd`, `${name}.exe`] : (name: string) => [name]
  const found = await Promise.all(
    REGISTRY_RUNTIMES.map(async (runtime) => {
      for (const dir of dirs)
        for (const file of names(runtime)) {
          try {
            await access(join(dir, file), constants.X_OK)
            return true
          } catch {
            // not in this folder
          }
        }
      return false
    })
  )
  return Object.fromEntries(REGISTRY_RUNTIMES.map((r, i) => [r, found[i]])) as Record<
    RegistryRuntime,
    boolean
  >
}
