import { acpLogAppended } from '@shared/contracts/events/acp.events'
import type { AcpLogEntry } from '@shared/types/acp'
import type { EventSink } from '../../bridge/events'

const FLUSH_MS = 250

/** Protocol log entries go to the renderer in batches: a streaming agent sends hundreds a second. */
export class LogBatcher {
  private readonly waiting = new Map<string, AcpLogEntry[]>()
  private timer: NodeJS.Timeout | undefined

  constructor(private readonly events: EventSink) {}

  add(agentId: string, entry: AcpLogEntry): void {
    const list = this.waiting.get(agentId) ?? []
    list.push(entry)
    this.waiting.set(agentId, list)
    this.timer ??= setTimeout(() => this.flush(), FLUSH_MS)
    this.timer.unref?.()
  }

  flush(): void {
    this.timer = undefined
    for (const [agentId, entries] of this.waiting) this.events.emit(acpLogAppended, { agentId, entries })
    this.waiting.clear()
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = undefined
    this.waiting.clear()
  }
}
