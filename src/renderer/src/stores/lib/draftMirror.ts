import { z } from 'zod'
import { draftsSave } from '@shared/contracts/routes/drafts.routes'
import type { RouteInput } from '@shared/contracts/define'

/** One draft write as the back end takes it, dated by when the composer held it. */
export type DraftWrite = RouteInput<typeof draftsSave> & { typedAt: number }

/**
 * A write kept for the next page. `beforeRead`: typed before this window had read the stored
 * draft, so it is only the user's part of the draft; the stored files and assistant join it.
 */
export interface UnconfirmedDraft {
  write: DraftWrite
  beforeRead: boolean
}

const Kept = z
  .object({ write: draftsSave.input.required({ typedAt: true }), beforeRead: z.boolean() })
  .strict()

const PREFIX = 'deepchat.draft.unconfirmed:'

/**
 * The draft writes the back end has not confirmed yet, kept in the window's own storage.
 *
 * A write sent as the page goes away (reload, close) can be lost with the page's connection, and
 * one sent while the host is down fails: either way the next page would show the older stored
 * draft. Kept here synchronously, it is sent again by the next page (its date lets the back end's
 * newer-wins rule drop it if another page wrote later) and removed once confirmed.
 */
export interface DraftMirror {
  remember(write: DraftWrite, beforeRead?: boolean): void
  /** The back end has this write (or a newer one), or the chat is gone: nothing left to send. */
  settle(sessionId: string | null, typedAt: number): void
  unconfirmed(sessionId: string | null): UnconfirmedDraft | undefined
  allUnconfirmed(): UnconfirmedDraft[]
}

export function createDraftMirror(
  storage:
    | Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>
    | undefined = globalThis.localStorage
): DraftMirror {
  const keyOf = (sessionId: string | null) => PREFIX + (sessionId ?? '')

  function read(key: string): UnconfirmedDraft | undefined {
    try {
      const raw = storage?.getItem(key)
      if (raw == null) return undefined
      const parsed = Kept.safeParse(JSON.parse(raw))
      if (parsed.success) return parsed.data as UnconfirmedDraft
      storage?.removeItem(key) // unreadable (another version, edited by hand): never sent
    } catch {
      // Storage turned off or the value unreadable: there is nothing to send again.
    }
    return undefined
  }

  return {
    remember(write, beforeRead = false) {
      const key = keyOf(write.sessionId)
      const kept = read(key)
      if (kept && kept.write.typedAt > write.typedAt) return
      try {
        storage?.setItem(key, JSON.stringify({ write, beforeRead } satisfies UnconfirmedDraft))
      } catch {
        // Over the storage quota (a huge draft): the write to the back end still goes out.
      }
    },
    settle(sessionId, typedAt) {
      const key = keyOf(sessionId)
      const kept = read(key)
      if (!kept || kept.write.typedAt > typedAt) return
      try {
        storage?.removeItem(key)
      } catch {
        // Storage turned off: nothing was kept.
      }
    },
    unconfirmed: (sessionId) => read(keyOf(sessionId)),
    allUnconfirmed() {
      const keys: string[] = []
      try {
        for (let i = 0; i < (storage?.length ?? 0); i++) {
          const key = storage?.key(i)
          if (key?.startsWith(PREFIX)) keys.push(key)
        }
      } catch {
        return []
      }
      return keys.flatMap((key) => read(key) ?? [])
    }
  }
}
