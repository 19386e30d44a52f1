import type { SessionRecord } from '@shared/types/session'

/**
 * How a subagent child reads in the sidebar: its task title, with the slot's name beside it.
 * The back end titles children "slot · task title"; a child renamed or titled otherwise shows
 * its whole title.
 */
export function childLabel(session: Pick<SessionRecord, 'title' | 'subagentMeta'>): {
  title: string
  slot: string | null
} {
  const slot = session.subagentMeta?.displayName?.trim() || null
  if (!slot) return { title: session.title, slot: null }
  const prefix = `${slot} · `
  const task = session.title.startsWith(prefix)
    ? session.title.slice(prefix.length).trim()
    : session.title.trim()
  if (!task || task === slot) return { title: slot, slot: null }
  return { title: task, slot }
}
