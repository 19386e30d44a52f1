import type { UpdateStatus } from '@shared/types/desktop'
import type { RunMode } from '../../appResources'

/** What an update feed reports (electron-updater's events, reduced to what the UI needs). */
export type FeedEvent =
  | { type: 'checking' }
  | { type: 'available'; version: string }
  | { type: 'not-available' }
  | { type: 'progress'; percent: number }
  | { type: 'downloaded'; version: string }
  | { type: 'error'; message: string }

/** The updater's view of electron-updater (./electronFeed.ts); tests use a fake. */
export interface UpdateFeed {
  check(): Promise<void>
  download(): Promise<void>
  quitAndInstall(): void
  subscribe(listener: (event: FeedEvent) => void): () => void
}

export const CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000

/** The next status after a feed event. A downloaded update stays offered whatever comes next. */
export function nextUpdateStatus(status: UpdateStatus, event: FeedEvent, now: number): UpdateStatus {
  if (status.state === 'disabled' || status.state === 'downloaded') return status
  switch (event.type) {
    case 'checking':
      return { state: 'checking' }
    case 'available':
      return { state: 'available', version: event.version }
    case 'not-available':
      return { state: 'idle', lastCheckedAt: now }
    case 'progress': {
      const version = status.state === 'available' || status.state === 'downloading' ? status.version : ''
      return { state: 'downloading', version, percent: Math.min(100, Math.max(0, event.percent)) }
    }
    case 'downloaded':
      return { state: 'downloaded', version: event.version }
    case 'error':
      return { state: 'error', message: event.message, lastCheckedAt: now }
  }
}

/** Why updates are off before any setting is read, or null when they can run. */
export function updatesUnavailableReason(mode: RunMode, supported: boolean): UpdateStatus | null {
  if (mode === 'dev') return { state: 'disabled', reason: 'development' }
  if (mode === 'headless') return { state: 'disabled', reason: 'headless' }
  if (!supported) return { state: 'disabled', reason: 'unsupported' }
  return null
}

export interface UpdaterOptions {
  mode: RunMode
  /** False where the feed cannot install (no app-update.yml, an unsupported package format). */
  supported: boolean
  /** The user's `autoUpdate` setting at start. */
  enabled: boolean
  /** Called once, when updates first become active: a development run never loads electron-updater. */
  createFeed: () => UpdateFeed
  onChange: (status: UpdateStatus) => void
  /** Runs `task` every `ms`; returns a stop function. */
  every?: (ms: number, task: () => void) => () => void
  intervalMs?: number
  now?: () => number
  log?: (message: string) => void
}

function defaultEvery(ms: number, task: () => void): () => void {
  const timer = setInterval(task, ms)
  timer.unref?.()
  return () => clearInterval(timer)
}

/**
 * Checks at start and every few hours, downloads in the background, and waits for the user to
 * restart (`install`). Off in development and headless runs and when the user turns it off.
 */
export class Updater {
  private current: UpdateStatus
  private feed: UpdateFeed | undefined
  private stopTimer: (() => void) | undefined
  private readonly now: () => number

  constructor(private readonly options: UpdaterOptions) {
    this.now = options.now ?? Date.now
    const unavailable = updatesUnavailableReason(options.mode, options.supported)
    this.current =
      unavailable ??
      (options.enabled ? { state: 'idle', lastCheckedAt: null } : { state: 'disabled', reason: 'setting' })
  }

  get status(): UpdateStatus {
    return this.current
  }

  /** Starts checking when updates are possible and switched on. */
  start(): void {
    if (this.current.state === 'disabled') return
    this.activate()
  }

  /** The user's setting changed. A downloaded update stays offered when it is switched off. */
  setEnabled(enabled: boolean): void {
    if (updatesUnavailableReason(this.options.mode, this.options.supported)) return
    if (!enabled) {
      this.stopTimer?.()
      this.stopTimer = undefined
      if (this.current.state !== 'downloaded') this.set({ state: 'disabled', reason: 'setting' })
      return
    }
    if (this.current.state === 'disabled') {
      this.set({ state: 'idle', lastCheckedAt: null })
      this.activate()
    }
  }

  /** One check; ignored while another is running, a download is under way or one is ready. */
  async check(): Promise<void> {
    const busy = ['disabled', 'checking', 'available', 'downloading', 'downloaded']
    if (busy.includes(this.current.state) || !this.feed) return
    this.set({ state: 'checking' })
    try {
      await this.feed.check()
      // A feed that answered without an event (nothing published yet) leaves nothing in flight.
      if (this.current.state === 'checking') this.apply({ type: 'not-available' })
    } catch (error) {
      this.apply({ type: 'error', message: messageOf(error) })
    }
  }

  /** Quits and installs; false unless an update is downloaded. */
  install(): boolean {
    if (this.current.state !== 'downloaded' || !this.feed) return false
    this.feed.quitAndInstall()
    return true
  }

  stop(): void {
    this.stopTimer?.()
    this.stopTimer = undefined
  }

  private activate(): void {
    if (!this.feed) {
      this.feed = this.options.createFeed()
      this.feed.subscribe((event) => this.onFeedEvent(event))
    }
    void this.check()
    this.stopTimer ??= (this.options.every ?? defaultEvery)(
      this.options.intervalMs ?? CHECK_INTERVAL_MS,
      () => void this.check()
    )
  }

  private onFeedEvent(event: FeedEvent): void {
    const wasAvailable = this.current.state === 'available'
    this.apply(event)
    // Download once per offered version, in the background.
    if (event.type === 'available' && !wasAvailable && this.status.state === 'available') {
      this.feed!.download().catch((error: unknown) =>
        this.apply({ type: 'error', message: messageOf(error) })
      )
    }
  }

  private apply(event: FeedEvent): void {
    if (event.type === 'error') this.options.log?.(`update: ${event.message}`)
    this.set(nextUpdateStatus(this.current, event, this.now()))
  }

  private set(status: UpdateStatus): void {
    if (JSON.stringify(status) === JSON.stringify(this.current)) return
    this.current = status
    this.options.onChange(status)
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Whether electron-updater can install here: it needs the `app-update.yml` electron-builder
 * writes from `publish`, and on Linux an AppImage or a deb/rpm/pacman package (not a bare folder).
 */
export function canSelfUpdate(options: {
  platform: NodeJS.Platform
  resourcesPath: string
  env: NodeJS.ProcessEnv
  exists: (path: string) => boolean
}): boolean {
  const sep = options.platform === 'win32' ? '\\' : '/'
  if (!options.exists(`${options.resourcesPath}${sep}app-update.yml`)) return false
  if (options.platform !== 'linux') return true
  return Boolean(options.env.APPIMAGE) || options.exists(`${options.resourcesPath}/package-type`)
}
