import { defineStore } from 'pinia'
import { computed, ref } from 'vue'
import {
  sessionsGet,
  sessionsList,
  sessionsPin,
  sessionsPurge,
  sessionsRename,
  sessionsSearchHistory
} from '@shared/contracts/routes/sessions.routes'
import { sessionsStatusChanged, sessionsUpdated } from '@shared/contracts/events/sessions.events'
import { chatMessageCreated } from '@shared/contracts/events/chat.events'
import type { SessionRecord, SessionSearchHit, SessionStatus } from '@shared/types/session'
import { useBridge } from '@renderer/api/bridge'
import { useLoadState } from './lib/loadState'

export type DayGroup = 'pinned' | 'today' | 'yesterday' | 'week' | 'older' | 'all'
/** How the sidebar orders chats below the pinned ones. */
export type SessionOrder = 'activity' | 'created' | 'title'
export const SESSION_ORDERS: readonly SessionOrder[] = ['activity', 'created', 'title']
export interface SessionGroup {
  key: DayGroup
  sessions: SessionRecord[]
}

const PAGE = 200
const DAY = 86_400_000

/** Which sidebar group a session falls in, by its last activity relative to `now` (local days). */
export function dayGroupOf(session: SessionRecord, now: number): DayGroup {
  if (session.pinned) return 'pinned'
  const startOfToday = new Date(now).setHours(0, 0, 0, 0)
  const at = session.lastActivityAt
  if (at >= startOfToday) return 'today'
  if (at >= startOfToday - DAY) return 'yesterday'
  if (at >= startOfToday - 6 * DAY) return 'week'
  return 'older'
}

export function groupSessions(
  sessions: readonly SessionRecord[],
  now: number,
  by: SessionOrder = 'activity'
): SessionGroup[] {
  // By creation or title: pinned first, then one list (day groups only mean something for activity).
  if (by !== 'activity') {
    const compare =
      by === 'created'
        ? (a: SessionRecord, b: SessionRecord) => b.createdAt - a.createdAt
        : (a: SessionRecord, b: SessionRecord) =>
            a.title.localeCompare(b.title, undefined, { sensitivity: 'base', numeric: true })
    const pinned = sessions.filter((s) => s.pinned).sort(compare)
    const rest = sessions.filter((s) => !s.pinned).sort(compare)
    return [
      { key: 'pinned' as const, sessions: pinned },
      { key: 'all' as const, sessions: rest }
    ].filter((group) => group.sessions.length > 0)
  }
  const order: DayGroup[] = ['pinned', 'today', 'yesterday', 'week', 'older']
  const buckets = new Map<DayGroup, SessionRecord[]>(order.map((key) => [key, []]))
  const sorted = [...sessions].sort(
    (a, b) => Number(b.pinned) - Number(a.pinned) || b.lastActivityAt - a.lastActivityAt
  )
  for (const session of sorted) buckets.get(dayGroupOf(session, now))!.push(session)
  return order
    .map((key) => ({ key, sessions: buckets.get(key)! }))
    .filter((group) => group.sessions.length > 0)
}

/** The sidebar's session list, mirrored from main and refreshed on `sessions.list.updated`. */
export const useSessionsStore = defineStore('sessions', () => {
  const sessions = ref<SessionRecord[]>([])
  const children = ref<Record<string, SessionRecord[]>>({})
  const statusVersions = new Map<string, number>()
  const { error, loaded, track } = useLoadState()
  let unsubscribers: Array<() => void> = []
  let reloadTimer: ReturnType<typeof setTimeout> | undefined

  const byId = computed(() => {
    const map = new Map<string, SessionRecord>()
    for (const s of sessions.value) map.set(s.id, s)
    for (const list of Object.values(children.value)) for (const child of list) map.set(child.id, child)
    return map
  })

  function subscribe(): void {
    if (unsubscribers.length) return
    const bridge = useBridge()
    unsubscribers = [
      bridge.on(sessionsUpdated, () => scheduleReload()),
      bridge.on(sessionsStatusChanged, ({ sessionId, status, version }) =>
        applyStatus(sessionId, status, version)
      ),
      bridge.on(chatMessageCreated, ({ sessionId, message }) => noteActivity(sessionId, message.createdAt))
    ]
  }

  /** A new message moves its chat up the list at once (main does not re-send the list for it). */
  function noteActivity(sessionId: string, at: number): void {
    const session = sessions.value.find((s) => s.id === sessionId)
    if (session && at > session.lastActivityAt) session.lastActivityAt = at
  }

  function applyStatus(sessionId: string, status: SessionStatus, version: number): void {
    if ((statusVersions.get(sessionId) ?? -1) > version) return
    statusVersions.set(sessionId, version)
    const session = byId.value.get(sessionId)
    if (session) session.status = status
    // A child that starts working may be new: its parent's children list is re-read.
    if (session?.parentSessionId) void loadChildren(session.parentSessionId)
  }

  /** Several list events in a burst (a turn touches the session often) cost one reload. */
  function scheduleReload(): void {
    clearTimeout(reloadTimer)
    reloadTimer = setTimeout(() => void load(), 150)
  }

  async function load(): Promise<void> {
    subscribe()
    await track(async () => {
      const bridge = useBridge()
      const all: SessionRecord[] = []
      let cursor: string | undefined
      do {
        const page = await bridge.call(sessionsList, { limit: PAGE, ...(cursor ? { cursor } : {}) })
        all.push(...page.sessions)
        cursor = page.nextCursor ?? undefined
      } while (cursor && all.length < 2000)
      sessions.value = all
    })
  }

  /** Subagent sessions are not in the list: they are read per parent. */
  async function loadChildren(sessionId: string): Promise<SessionRecord[]> {
    try {
      const { children: list } = await useBridge().call(sessionsGet, { sessionId })
      children.value = { ...children.value, [sessionId]: list }
      return list
    } catch {
      return []
    }
  }

  async function rename(sessionId: string, title: string): Promise<void> {
    const { session } = await useBridge().call(sessionsRename, { sessionId, title })
    replace(session)
  }

  async function setPinned(sessionId: string, pinned: boolean): Promise<void> {
    const { session } = await useBridge().call(sessionsPin, { sessionId, pinned })
    replace(session)
  }

  async function purge(sessionId: string): Promise<string[]> {
    const { purgedSessionIds } = await useBridge().call(sessionsPurge, { sessionId })
    const gone = new Set(purgedSessionIds)
    sessions.value = sessions.value.filter((s) => !gone.has(s.id))
    return purgedSessionIds
  }

  async function search(query: string): Promise<SessionSearchHit[]> {
    const { hits } = await useBridge().call(sessionsSearchHistory, { query, limit: 30 })
    return hits
  }

  /** A chat's title: from the list, else read from main (a chat that just started); '' if unknown. */
  async function titleOf(sessionId: string): Promise<string> {
    const known = byId.value.get(sessionId)?.title
    if (known !== undefined) return known
    return useBridge()
      .call(sessionsGet, { sessionId })
      .then(
        (r) => r.session.title,
        () => ''
      )
  }

  function replace(session: SessionRecord): void {
    const index = sessions.value.findIndex((s) => s.id === session.id)
    if (index >= 0) sessions.value.splice(index, 1, session)
    else if (session.kind === 'regular') sessions.value.unshift(session)
  }

  function dispose(): void {
    unsubscribers.forEach((off) => off())
    unsubscribers = []
    clearTimeout(reloadTimer)
  }

  return {
    sessions,
    children,
    byId,
    loaded,
    error,
    load,
    loadChildren,
    rename,
    setPinned,
    purge,
    search,
    titleOf,
    replace,
    dispose
  }
})
