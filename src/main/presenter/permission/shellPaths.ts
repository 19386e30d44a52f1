import { lstatSync, readlinkSync, realpathSync } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'

const MAX_LINK_HOPS = 40

/**
 * Where a path argument really leads when a program opens it. Unlike a normalised path,
 * `link/../x` is resolved as the kernel does it: through the link first, then up from where
 * it points. A dangling link leads where it would create its target. A path that does not exist
 * yet is resolved at its nearest existing ancestor, with the missing tail appended.
 *
 * `/proc/...` paths are judged as written: resolving them here would describe this process,
 * not the command's.
 */
export function physicalPathOf(path: string, cwd: string): string {
  const joined = isAbsolute(path) ? path : `${cwd.replace(/\/+$/, '')}/${path}`
  if (/^\/proc(\/|$)/.test(resolve(joined))) return resolve(joined)
  return resolvePhysical(joined, 0)
}

function resolvePhysical(path: string, hops: number): string {
  const missing: string[] = []
  let current = path
  for (;;) {
    try {
      const real = realpathSync.native(current)
      return missing.length ? join(real, ...missing.reverse()) : real
    } catch {
      const target = danglingTarget(current)
      if (target !== null && hops < MAX_LINK_HOPS) {
        const followed = isAbsolute(target) ? target : `${dirname(current)}/${target}`
        return resolvePhysical(
          missing.length ? `${followed}/${missing.reverse().join('/')}` : followed,
          hops + 1
        )
      }
      const parent = dirname(current)
      if (parent === current) return resolve(path)
      missing.push(basename(current))
      current = parent
    }
  }
}

/** Where a link that cannot be resolved points, or null when `path` is not a link. */
function danglingTarget(path: string): string | null {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : null
  } catch {
    return null
  }
}
