import { describe, expect, it } from 'vitest'
import type { UpdateStatus } from '@shared/types/desktop'
import {
  Updater,
  canSelfUpdate,
  nextUpdateStatus,
  type FeedEvent,
  type UpdateFeed,
  type UpdaterOptions
} from '../../../src/main/electron/updates/updateMachine'

/** A release feed in memory: what electron-updater would report for a given latest version. */
class FakeFeed implements UpdateFeed {
  latest: string | null = null
  failCheck: string | null = null
  failDownload: string | null = null
  checks = 0
  downloads = 0
  installed = false
  private listeners = new Set<(event: FeedEvent) => void>()

  subscribe(listener: (event: FeedEvent) => void) {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private emit(event: FeedEvent) {
    for (const listener of this.listeners) listener(event)
  }

  async check() {
    this.checks++
    this.emit({ type: 'checking' })
    if (this.failCheck) {
      this.emit({ type: 'error', message: this.failCheck })
      throw new Error(this.failCheck)
    }
    this.emit(this.latest ? { type: 'available', version: this.latest } : { type: 'not-available' })
  }

  async download() {
    this.downloads++
    if (this.failDownload) throw new Error(this.failDownload)
    this.emit({ type: 'progress', percent: 40 })
    this.emit({ type: 'progress', percent: 100 })
    this.emit({ type: 'downloaded', version: this.latest! })
  }

  quitAndInstall() {
    this.installed = true
  }
}

function setup(overrides: Partial<UpdaterOptions> = {}) {
  const feed = new FakeFeed()
  const seen: UpdateStatus[] = []
  const ticks: Array<() => void> = []
  let feedsCreated = 0
  const updater = new Updater({
    mode: 'packaged',
    supported: true,
    enabled: true,
    createFeed: () => {
      feedsCreated++
      return feed
    },
    onChange: (status) => seen.push(status),
    every: (_ms, task) => {
      ticks.push(task)
      return () => ticks.splice(ticks.indexOf(task), 1)
    },
    now: () => 1000,
    ...overrides
  })
  const tick = async () => {
    for (const task of [...ticks]) task()
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { feed, seen, updater, tick, ticks, feedsCreated: () => feedsCreated }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('update state machine', () => {
  it('checks at start, downloads in the background and waits for Restart to update', async () => {
    const { feed, seen, updater } = setup()
    feed.latest = '1.2.0'
    updater.start()
    await settle()
    expect(seen.map((s) => s.state)).toEqual([
      'checking',
      'available',
      'downloading',
      'downloading',
      'downloaded'
    ])
    expect(seen.filter((s) => s.state === 'downloading')).toEqual([
      { state: 'downloading', version: '1.2.0', percent: 40 },
      { state: 'downloading', version: '1.2.0', percent: 100 }
    ])
    expect(feed.downloads).toBe(1)
    expect(feed.installed).toBe(false)
    expect(updater.install()).toBe(true)
    expect(feed.installed).toBe(true)
  })

  it('checks again on the timer, and finds a version published later', async () => {
    const { feed, updater, tick, seen } = setup()
    updater.start()
    await settle()
    expect(updater.status).toEqual({ state: 'idle', lastCheckedAt: 1000 })
    expect(updater.install()).toBe(false)
    feed.latest = '2.0.0'
    await tick()
    expect(feed.checks).toBe(2)
    expect(updater.status).toEqual({ state: 'downloaded', version: '2.0.0' })
    await tick()
    expect(feed.checks).toBe(2) // nothing more to do while an update is ready
    expect(seen.at(-1)).toEqual({ state: 'downloaded', version: '2.0.0' })
  })

  it('reports a failed check or download and tries again on the next tick', async () => {
    const { feed, updater, tick } = setup()
    feed.failCheck = 'net::ERR_INTERNET_DISCONNECTED'
    updater.start()
    await settle()
    expect(updater.status).toEqual({
      state: 'error',
      message: 'net::ERR_INTERNET_DISCONNECTED',
      lastCheckedAt: 1000
    })
    feed.failCheck = null
    feed.latest = '1.1.0'
    feed.failDownload = 'sha512 checksum mismatch'
    await tick()
    expect(updater.status).toMatchObject({ state: 'error', message: 'sha512 checksum mismatch' })
    feed.failDownload = null
    await tick()
    expect(updater.status).toEqual({ state: 'downloaded', version: '1.1.0' })
  })

  it('is off in development and headless runs and never loads the feed there', () => {
    for (const [mode, reason] of [
      ['dev', 'development'],
      ['headless', 'headless']
    ] as const) {
      const { updater, feedsCreated, ticks } = setup({ mode })
      updater.start()
      updater.setEnabled(true)
      expect(updater.status).toEqual({ state: 'disabled', reason })
      expect(feedsCreated()).toBe(0)
      expect(ticks).toHaveLength(0)
    }
    const unsupported = setup({ supported: false })
    unsupported.updater.start()
    expect(unsupported.updater.status).toEqual({ state: 'disabled', reason: 'unsupported' })
  })

  it('follows the setting: off stops the checks, on checks at once', async () => {
    const { feed, updater, ticks, feedsCreated } = setup({ enabled: false })
    updater.start()
    expect(updater.status).toEqual({ state: 'disabled', reason: 'setting' })
    expect(feedsCreated()).toBe(0)
    updater.setEnabled(true)
    await settle()
    expect(feed.checks).toBe(1)
    expect(ticks).toHaveLength(1)
    updater.setEnabled(false)
    expect(updater.status).toEqual({ state: 'disabled', reason: 'setting' })
    expect(ticks).toHaveLength(0)
    await updater.check()
    expect(feed.checks).toBe(1)
  })

  it('keeps a downloaded update offered when updates are switched off afterwards', async () => {
    const { feed, updater } = setup()
    feed.latest = '3.0.0'
    updater.start()
    await settle()
    updater.setEnabled(false)
    expect(updater.status).toEqual({ state: 'downloaded', version: '3.0.0' })
    expect(updater.install()).toBe(true)
  })

  it('ignores feed events once disabled and never leaves a downloaded state', () => {
    const disabled: UpdateStatus = { state: 'disabled', reason: 'setting' }
    expect(nextUpdateStatus(disabled, { type: 'available', version: '9' }, 0)).toBe(disabled)
    const ready: UpdateStatus = { state: 'downloaded', version: '2' }
    expect(nextUpdateStatus(ready, { type: 'error', message: 'x' }, 0)).toBe(ready)
    expect(
      nextUpdateStatus({ state: 'available', version: '2' }, { type: 'progress', percent: 140 }, 0)
    ).toEqual({
      state: 'downloading',
      version: '2',
      percent: 100
    })
  })
})

describe('self-update support', () => {
  const has =
    (...files: string[]) =>
    (path: string) =>
      files.includes(path)

  it('needs app-update.yml, and on Linux an AppImage or a package format', () => {
    const base = { resourcesPath: '/r', env: {} }
    expect(canSelfUpdate({ ...base, platform: 'darwin', exists: has('/r/app-update.yml') })).toBe(true)
    expect(canSelfUpdate({ ...base, platform: 'darwin', exists: has() })).toBe(false)
    expect(canSelfUpdate({ ...base, platform: 'linux', exists: has('/r/app-update.yml') })).toBe(false)
    expect(
      canSelfUpdate({ ...base, platform: 'linux', exists: has('/r/app-update.yml', '/r/package-type') })
    ).toBe(true)
    expect(
      canSelfUpdate({
        ...base,
        env: { APPIMAGE: '/x.AppImage' },
        platform: 'linux',
        exists: has('/r/app-update.yml')
      })
    ).toBe(true)
    expect(
      canSelfUpdate({
        ...base,
        resourcesPath: 'C:\\r',
        platform: 'win32',
        exists: has('C:\\r\\app-update.yml')
      })
    ).toBe(true)
  })
})
