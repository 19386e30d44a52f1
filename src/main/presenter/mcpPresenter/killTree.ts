import { execa } from 'execa'

/** All descendants of `rootPid` (children first found, grandchildren after), read from `ps`. */
export async function listDescendants(rootPid: number): Promise<number[]> {
  if (process.platform === 'win32') return []
  const result = await execa('ps', ['-A', '-o', 'pid=,ppid='], { reject: false, timeout: 3_000 })
  if (result.exitCode !== 0) return []
  const children = new Map<number, number[]>()
  for (const line of String(result.stdout).split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number)
    if (!pid || Number.isNaN(ppid)) continue
    const list = children.get(ppid) ?? []
    list.push(pid)
    children.set(ppid, list)
  }
  const found: number[] = []
  const queue = [rootPid]
  while (queue.length) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child)
      queue.push(child)
    }
  }
  return found
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/**
 * Kills processes a server left behind. `npx foo` or a shell wrapper spawn the real server as a
 * grandchild, which survives when only the direct child is killed.
 */
export async function killProcesses(pids: number[], graceMs = 1_000): Promise<void> {
  if (process.platform === 'win32') {
    await Promise.all(
      pids.map((pid) => execa('taskkill', ['/pid', String(pid), '/T', '/F'], { reject: false }))
    )
    return
  }
  const alive = pids.filter(isAlive)
  for (const pid of alive) {
    try {
      process.kill(pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + graceMs
  while (Date.now() < deadline && alive.some(isAlive)) await new Promise((r) => setTimeout(r, 50))
  for (const pid of alive.filter(isAlive)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
}
