import { basename } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { McpRoot } from './clientHandlers'

/** The chat a call comes from, for the roots its server is shown. */
export interface McpCallSession {
  sessionId: string
  workspaceDirs: string[]
}

export function rootsFromDirs(dirs: readonly string[]): McpRoot[] {
  return dirs.filter(Boolean).map((dir) => ({ uri: pathToFileURL(dir).href, name: basename(dir) || dir }))
}

function sameRoots(a: readonly McpRoot[], b: readonly McpRoot[]): boolean {
  return a.length === b.length && a.every((root, i) => root.uri === b[i].uri && root.name === b[i].name)
}

/**
 * Roots are per client connection, and one connection serves every chat. So a server's roots are
 * the workspace folder(s) of the chat that used it last: a call from another chat's workspace, or
 * that chat moving to another folder, changes them and the server is sent `roots/list_changed`
 * before the call runs. Until a chat has used a server it sees the default roots (`setDefault`).
 */
export class RootsTracker {
  private defaults: McpRoot[] = []
  private readonly byServer = new Map<string, { sessionId: string; roots: McpRoot[] }>()

  /** `notify` sends `roots/list_changed` to a running server; failures are its own business. */
  constructor(private readonly notify: (serverId: string) => Promise<void>) {}

  rootsOf(serverId: string): McpRoot[] {
    return (this.byServer.get(serverId)?.roots ?? this.defaults).map((root) => ({ ...root }))
  }

  /** The roots servers no chat has used yet see; returns the servers that must be told. */
  setDefault(roots: readonly McpRoot[], runningIds: readonly string[]): Promise<void> {
    this.defaults = roots.map((root) => ({ ...root }))
    return this.notifyAll(runningIds.filter((id) => !this.byServer.has(id)))
  }

  /** Before a call from `session` to `serverId`: make its roots that chat's workspace. */
  async useFor(serverId: string, session: McpCallSession): Promise<void> {
    const roots = rootsFromDirs(session.workspaceDirs)
    const before = this.rootsOf(serverId)
    this.byServer.set(serverId, { sessionId: session.sessionId, roots })
    if (!sameRoots(before, roots)) await this.notify(serverId)
  }

  /** A chat's folder changed: servers it used last now see the new one. */
  async sessionChanged(session: McpCallSession): Promise<void> {
    const owned = [...this.byServer].filter(([, entry]) => entry.sessionId === session.sessionId)
    await Promise.all(owned.map(([serverId]) => this.useFor(serverId, session)))
  }

  forget(serverId: string): void {
    this.byServer.delete(serverId)
  }

  private async notifyAll(ids: readonly string[]): Promise<void> {
    await Promise.all(ids.map((id) => this.notify(id)))
  }
}
