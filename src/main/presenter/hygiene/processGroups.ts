import { randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { processStartTime } from './startTime'

/** Every command a host starts carries this variable, with a value unique to that host run. */
export const HOST_MARK_VARIABLE = 'DEEPCHAT_HOST_RUN'

interface GroupRecord {
  pid: number
  startTime: string
}

interface HostRecord {
  host: GroupRecord
  /** The value of HOST_MARK_VARIABLE in this host's commands. */
  mark: string
  groups: GroupRecord[]
}

/**
 * The process groups this host started, written to `<dir>/<hostPid>.json` so that the next
 * start can kill what a crashed host left running. A group is recorded by its leader's pid and
 * start time, never by pid alone.
 */
export class ProcessGroupRegistry {
  /** Put in every command's environment (`HOST_MARK_VARIABLE`): it tells our leftovers from anyone else's processes. */
  readonly mark = randomBytes(12).toString('hex')
  private readonly groups = new Map<number, { startTime: string | null }>()
  private hostStart?: Promise<string | null>
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private readonly dir: string,
    private readonly log: (message: string) => void = () => {}
  ) {}

  /** Records the group led by `pid`; resolves once it is on disk. */
  record(pid: number): Promise<void> {
    const entry = { startTime: null as string | null }
    this.groups.set(pid, entry)
    return processStartTime(pid).then((startTime) => {
      if (this.groups.get(pid) !== entry) return this.writing
      if (!startTime) {
        this.groups.delete(pid)
        return this.writing
      }
      entry.startTime = startTime
      return this.persist()
    })
  }

  /** Forgets the group led by `pid` (it exited or was killed). */
  release(pid: number): Promise<void> {
    const entry = this.groups.get(pid)
    if (!entry) return this.writing
    this.groups.delete(pid)
    return entry.startTime ? this.persist() : this.writing
  }

  private persist(): Promise<void> {
    this.writing = this.writing
      .then(() => this.writeNow())
      .catch((error) => this.log(`process records not written: ${String(error)}`))
    return this.writing
  }

  private async writeNow(): Promise<void> {
    this.hostStart ??= processStartTime(process.pid)
    const hostStart = await this.hostStart
    const file = join(this.dir, `${process.pid}-${hostStart}.json`)
    const groups = [...this.groups].flatMap(([pid, { startTime }]) => (startTime ? [{ pid, startTime }] : []))
    if (!hostStart || groups.length === 0) {
      rmSync(file, { force: true })
      return
    }
    mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    const record: HostRecord = { host: { pid: process.pid, startTime: hostStart }, mark: this.mark, groups }
    writeFileSync(`${file}.tmp`, JSON.stringify(record), { mode: 0o600 })
    renameSync(`${file}.tmp`, file)
  }
}

export interface ReapResult {
  /** Group ids killed. */
  killed: number[]
  /** Recorded leaders whose pid now belongs to another process: left alone. */
  reused: number[]
}

/**
 * Kills the process groups that hosts which are no longer running left behind, then drops
 * their records. A group whose leader still has the recorded start time is killed whole. A
 * leader pid that now has another start time is someone else's process: left alone. When the
 * leader is gone (on Linux a host command's shell dies with the host, its children do not),
 * only the group's members that carry the host's mark in their environment are killed: the
 * group id may since belong to someone else's group.
 */
export async function reapOrphanedGroups(
  dir: string,
  log: (message: string) => void = () => {}
): Promise<ReapResult> {
  const result: ReapResult = { killed: [], reused: [] }
  let names: string[]
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'))
  } catch {
    return result
  }
  for (const name of names) {
    const file = join(dir, name)
    const record = readRecord(file)
    if (record && (await isRunning(record.host))) continue
    for (const group of record?.groups ?? []) await reapGroup(group, record?.mark ?? '', result)
    rmSync(file, { force: true })
  }
  if (result.killed.length)
    log(
      `Killed ${result.killed.length} process group(s) left by a host that stopped: ${result.killed.join(', ')}`
    )
  return result
}

async function reapGroup(group: GroupRecord, mark: string, result: ReapResult): Promise<void> {
  const now = await processStartTime(group.pid)
  if (now !== null && now !== group.startTime) {
    result.reused.push(group.pid)
    return
  }
  const members = now === null ? markedMembers(group.pid, mark) : null
  try {
    if (members === null) process.kill(-group.pid, 'SIGKILL')
    else for (const pid of members) process.kill(pid, 'SIGKILL')
    if (members === null || members.length) result.killed.push(group.pid)
  } catch {
    // Gone meanwhile.
  }
}

/** Linux: pids in process group `groupId` whose environment has our host's mark (elsewhere: none). */
function markedMembers(groupId: number, mark: string): number[] {
  if (process.platform !== 'linux') return []
  const wanted = `${HOST_MARK_VARIABLE}=${mark}`
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== groupId) continue
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(wanted))
        found.push(Number(entry))
    } catch {
      // Exited meanwhile, or not ours to read.
    }
  }
  return found
}

async function isRunning(host: GroupRecord): Promise<boolean> {
  return (await processStartTime(host.pid)) === host.startTime
}

function readRecord(file: string): HostRecord | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as HostRecord
    // A group id of 1 or less would make kill(-id) signal every process we may signal.
    const valid = (g: GroupRecord, least: number): boolean =>
      Number.isInteger(g?.pid) && g.pid >= least && typeof g.startTime === 'string'
    const groupsValid = Array.isArray(parsed.groups) && parsed.groups.every((g) => valid(g, 2))
    return valid(parsed.host, 1) && typeof parsed.mark === 'string' && groupsValid ? parsed : null
  } catch {
    return null
  }
}
