import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

/**
 * What a restarted host on the same data folder reuses so an open browser tab reconnects: the
 * port and the bridge token. Kept in the data folder (0600), which no tool may read.
 */
const HostState = z.object({ port: z.number().int().min(1).max(65535), token: z.string().min(16).max(200) })
export type HostState = z.infer<typeof HostState>

const FILE = 'host.json'

/** Reads without writing anything; a missing or unreadable file is no state. */
export function readHostState(dataDir: string): HostState | null {
  try {
    const parsed = HostState.safeParse(JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export function writeHostState(dataDir: string, state: HostState): void {
  const file = join(dataDir, FILE)
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 })
  chmodSync(tmp, 0o600)
  renameSync(tmp, file)
}
