import { join } from 'node:path'
import { writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  loadWindowState,
  restoreWindowState,
  saveWindowState,
  type Rect
} from '../../../src/main/electron/windowState'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()
const SIZE = { width: 1200, height: 800, minWidth: 720, minHeight: 480 }
// A laptop screen (primary) with a big monitor to its right; work areas leave room for a dock / bar.
const laptop: Rect = { x: 0, y: 25, width: 1440, height: 875 }
const monitor: Rect = { x: 1440, y: 0, width: 2560, height: 1415 }

describe('window state restore', () => {
  it('reopens where it was on the monitor that is still there', () => {
    const saved = { bounds: { x: 2000, y: 200, width: 1600, height: 1000 }, maximized: false }
    expect(restoreWindowState(saved, { workAreas: [laptop, monitor], primary: laptop }, SIZE)).toEqual(saved)
  })

  it('comes back centred on the primary screen, shrunk to fit, when its monitor was unplugged', () => {
    const saved = { bounds: { x: 2000, y: 200, width: 1600, height: 1000 }, maximized: true }
    const restored = restoreWindowState(saved, { workAreas: [laptop], primary: laptop }, SIZE)
    expect(restored).toEqual({ bounds: { x: 0, y: 25, width: 1440, height: 875 }, maximized: true })
  })

  it('pulls a window that hangs off the edge back inside its display', () => {
    const saved = { bounds: { x: 1100, y: -60, width: 1000, height: 700 }, maximized: false }
    const restored = restoreWindowState(saved, { workAreas: [laptop, monitor], primary: laptop }, SIZE)
    // Mostly on the monitor (x 1440…2100): kept there, moved down below the monitor's top.
    expect(restored.bounds).toEqual({ x: 1440, y: 0, width: 1000, height: 700 })
  })

  it('treats a window barely visible on a remaining screen as lost', () => {
    const saved = { bounds: { x: 1400, y: 100, width: 1200, height: 800 }, maximized: false }
    const restored = restoreWindowState(saved, { workAreas: [laptop], primary: laptop }, SIZE)
    expect(restored.bounds).toEqual({ x: 120, y: 63, width: 1200, height: 800 })
  })

  it('uses the default size, centred by Electron, when nothing was saved', () => {
    expect(restoreWindowState(null, { workAreas: [laptop], primary: laptop }, SIZE)).toEqual({
      bounds: { width: 1200, height: 800 },
      maximized: false
    })
    const small: Rect = { x: 0, y: 0, width: 1024, height: 600 }
    expect(restoreWindowState(null, { workAreas: [small], primary: small }, SIZE).bounds).toEqual({
      width: 1024,
      height: 600
    })
  })

  it('saves and loads the state, and ignores a damaged file', () => {
    const file = join(tempDir(), 'nested', 'window-state.json')
    expect(loadWindowState(file)).toBeNull()
    const state = { bounds: { x: 10, y: 20, width: 900, height: 700 }, maximized: true }
    saveWindowState(file, state)
    expect(loadWindowState(file)).toEqual(state)
    writeFileSync(file, '{"bounds": {"x": "left"}')
    expect(loadWindowState(file)).toBeNull()
    writeFileSync(file, JSON.stringify({ bounds: { x: 0, y: 0, width: -5, height: 10 }, maximized: false }))
    expect(loadWindowState(file)).toBeNull()
  })
})
