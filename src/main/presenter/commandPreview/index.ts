import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { CommandPreview, PreviewLimits, PreviewRunReason } from '@shared/types/commandPreview'
import type { AppDataBoundary } from '../permission/boundary'
import { childEnvironment } from '../permission/childEnvironment'
import { realPathOf } from '../permission/paths'
import { detectSandbox, type DetectedSandbox } from '../sandbox/detect'
import { userShell } from '../sandbox/userShell'
import { applyChanges, PartlyAppliedError } from './changes'
import { DEFAULT_PREVIEW_LIMITS, runPreview, type PreviewRun } from './previewRun'
import { firstDifference, walkTree } from './workspaceTree'

export { DEFAULT_PREVIEW_LIMITS } from './previewRun'

/** One pending command call to preview. */
export interface PreviewTarget {
  sessionId: string
  toolCallId: string
  command: string
  /** The working folder the request names (inside the workspace). */
  cwd: string
  workspaceDir: string
  /** A background command (a server, a watcher) has no end to preview. */
  background?: boolean
  /** The call's own `timeout_ms`: a preview never runs longer than the command would. */
  timeoutMs?: number
  /** Only `exec` calls are previewed (an ACP agent's terminal is not ours to re-run). */
  tool: string
  /**
   * The classifier found it writes `.git` or another protected entry: read-only in the preview,
   * where a write that fails silently would be lost, so approving runs it for real.
   */
  writesProtected?: boolean
}

/** What approving a previewed call did, for exec's result. */
export type ApprovedPreview =
  | { kind: 'applied'; preview: Extract<CommandPreview, { status: 'done' }> }
  | { kind: 'run'; reason: PreviewRunReason | 'unavailable'; detail?: string }
  /** Applying failed after it had begun: running the command as well could do things twice. */
  | { kind: 'failed'; detail: string }

export interface CommandPreviewOptions {
  /** Where previews keep their copies; emptied when the app starts. */
  root: string
  /** The environment a command gets before the allowlist (the login shell's). */
  baseEnv?: () => Promise<NodeJS.ProcessEnv>
  allowedVariables?: () => readonly string[]
  home?: string
  appData?: AppDataBoundary
  platform?: NodeJS.Platform
  detect?: () => Promise<DetectedSandbox>
  limits?: Partial<PreviewLimits>
  /** The pending call an approval card asks about (the route's way in). */
  lookup?: (sessionId: string, interactionId: string) => PreviewTarget
  log?: (message: string) => void
}

interface Entry {
  target: PreviewTarget
  /** The approval card's request, when the preview was asked for one. */
  interactionId?: string
  result: Promise<PreviewRun | CommandPreview>
  abort: AbortController
  scratchDir: string
  createdAt: number
}

/** Previews kept at once; the oldest is dropped (its copy removed) beyond this. */
const MAX_KEPT = 8
/** A preview nobody answered for this long is dropped with its copy. */
const MAX_AGE_MS = 30 * 60_000

/**
 * Previews of commands waiting for approval: the command run first in the sandbox on a copy of
 * the workspace without network, its changes shown on the card; approving applies exactly those
 * changes when the workspace did not change since, else the command runs for real.
 */
export class CommandPreviews {
  private readonly entries = new Map<string, Entry>()
  readonly limits: PreviewLimits

  constructor(private readonly options: CommandPreviewOptions) {
    this.limits = { ...DEFAULT_PREVIEW_LIMITS, ...options.limits }
    // Copies a previous run left behind.
    rmSync(options.root, { recursive: true, force: true })
  }

  /** The preview for an approval card: started by the first ask, shared by later ones. */
  forInteraction(sessionId: string, interactionId: string): Promise<CommandPreview> {
    if (!this.options.lookup) return Promise.resolve(this.unavailable('not_supported'))
    return this.preview(this.options.lookup(sessionId, interactionId), interactionId)
  }

  async preview(target: PreviewTarget, interactionId?: string): Promise<CommandPreview> {
    if (target.tool !== 'exec') return this.unavailable('not_exec')
    if (target.background) return this.unavailable('background')
    const detected = await (this.options.detect?.() ?? detectSandbox({ platform: this.platform }))
    if (detected.kind !== 'bwrap' || !detected.available || !detected.program)
      return this.unavailable(
        detected.kind === 'seatbelt' ? 'not_supported' : 'no_sandbox',
        detected.kind === 'seatbelt' ? 'macOS: no copy-on-write preview yet' : detected.reason
      )
    const key = keyOf(target.sessionId, target.toolCallId)
    const known = this.entries.get(key)
    if (known && known.target.command === target.command) return viewOf(await known.result)
    if (known) this.drop(key)
    const entry = { ...this.start(target, detected), ...(interactionId ? { interactionId } : {}) }
    this.entries.set(key, entry)
    this.trim()
    return viewOf(await entry.result)
  }

  /**
   * The user approved this call: apply its preview if the workspace is exactly as the preview
   * found it, else say why the command must run for real. A preview still running is stopped.
   * Null when the call was never previewed.
   */
  async applyApproved(call: {
    sessionId: string
    toolCallId: string
    command: string
    cwd: string
  }): Promise<ApprovedPreview | null> {
    const key = keyOf(call.sessionId, call.toolCallId)
    const entry = this.entries.get(key)
    if (!entry || entry.target.command !== call.command || !sameDir(entry.target.cwd, call.cwd)) return null
    this.entries.delete(key)
    const finished = await Promise.race([entry.result, Promise.resolve(UNFINISHED)])
    if (finished === UNFINISHED) {
      this.entries.set(key, entry)
      this.drop(key)
      return { kind: 'run', reason: 'unfinished' }
    }
    try {
      if (!('preview' in finished)) return { kind: 'run', reason: 'unavailable', detail: finished.status }
      const preview = finished.preview
      if (preview.status !== 'done') return { kind: 'run', reason: 'unavailable' }
      if (preview.onApprove === 'run') return { kind: 'run', reason: preview.runReason ?? 'refused' }
      const workspace = realPathOf(entry.target.workspaceDir)
      const now = walkTree(workspace, { skip: new Set(finished.fingerprintSkip) })
      const difference = firstDifference(finished.fingerprint, now)
      if (difference) return { kind: 'run', reason: 'workspace_changed', detail: difference }
      applyChanges(workspace, finished.copyDir, finished.changes)
      return { kind: 'applied', preview }
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error)
      this.options.log?.(`command preview: ${detail}`)
      if (error instanceof PartlyAppliedError) return { kind: 'failed', detail }
      return { kind: 'run', reason: 'unavailable', detail: 'failed' }
    } finally {
      rmSync(entry.scratchDir, { recursive: true, force: true })
    }
  }

  /**
   * A session's requests changed: previews of requests denied or cancelled are dropped with their
   * copies (an allowed one stays until exec applies it).
   */
  settle(sessionId: string, statusOf: (interactionId: string) => string | null): void {
    for (const [key, entry] of this.entries) {
      if (entry.target.sessionId !== sessionId || !entry.interactionId) continue
      const status = statusOf(entry.interactionId)
      if (status !== 'pending' && status !== 'granted') this.drop(key)
    }
  }

  /** Forgets a session's previews (session deleted). */
  clearSession(sessionId: string): void {
    for (const [key, entry] of this.entries) if (entry.target.sessionId === sessionId) this.drop(key)
  }

  dispose(): void {
    for (const key of [...this.entries.keys()]) this.drop(key)
  }

  private get platform(): NodeJS.Platform {
    return this.options.platform ?? process.platform
  }

  private start(target: PreviewTarget, detected: DetectedSandbox): Entry {
    mkdirSync(this.options.root, { recursive: true, mode: 0o700 })
    const scratchDir = mkdtempSync(join(this.options.root, 'preview-'))
    const abort = new AbortController()
    const result = (async () => {
      const source = await (this.options.baseEnv?.() ?? Promise.resolve(process.env)).catch(() => process.env)
      const env = {
        ...childEnvironment(source, this.options.allowedVariables?.() ?? []),
        PAGER: 'cat',
        GIT_PAGER: 'cat'
      }
      const run = await runPreview({
        command: target.command,
        cwd: realPathOf(target.cwd),
        workspaceDir: realPathOf(target.workspaceDir),
        env,
        shell: userShell(target.command),
        home: this.options.home ?? homedir(),
        appData: this.options.appData,
        bwrap: detected.program!,
        seccomp: detected.socketGuard === 'seccomp',
        scratchDir,
        limits: { ...this.limits, timeMs: Math.min(this.limits.timeMs, target.timeoutMs ?? Infinity) },
        signal: abort.signal
      })
      if (!target.writesProtected || !('preview' in run) || run.preview.status !== 'done') return run
      if (run.preview.onApprove === 'run') return run
      return {
        ...run,
        preview: { ...run.preview, onApprove: 'run' as const, runReason: 'protected' as const }
      }
    })().catch((error: unknown): CommandPreview => {
      this.options.log?.(`command preview failed: ${error instanceof Error ? error.message : String(error)}`)
      return this.unavailable('failed', error instanceof Error ? error.message : String(error))
    })
    return { target, result, abort, scratchDir, createdAt: Date.now() }
  }

  private drop(key: string): void {
    const entry = this.entries.get(key)
    if (!entry) return
    this.entries.delete(key)
    entry.abort.abort()
    void entry.result.finally(() => rmSync(entry.scratchDir, { recursive: true, force: true }))
  }

  private trim(): void {
    const stale = Date.now() - MAX_AGE_MS
    for (const [key, entry] of this.entries) if (entry.createdAt < stale) this.drop(key)
    while (this.entries.size > MAX_KEPT) {
      const oldest = [...this.entries].sort((a, b) => a[1].createdAt - b[1].createdAt)[0]
      if (!oldest) return
      this.drop(oldest[0])
    }
  }

  private unavailable(
    reason: Extract<CommandPreview, { status: 'unavailable' }>['reason'],
    detail?: string
  ): CommandPreview {
    return { status: 'unavailable', reason, ...(detail ? { detail } : {}), limits: this.limits }
  }
}

const UNFINISHED = Symbol('unfinished')

const keyOf = (sessionId: string, toolCallId: string) => `${sessionId}\0${toolCallId}`

function viewOf(result: PreviewRun | CommandPreview): CommandPreview {
  return 'preview' in result ? result.preview : result
}

function sameDir(a: string, b: string): boolean {
  return a === b || realPathOf(a) === realPathOf(b)
}
