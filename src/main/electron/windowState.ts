import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { z } from 'zod'
import type { BrowserWindow } from 'electron'

const Rect = z.object({
  x: z.number().int(),
  y: z.number().int(),
  width: z.number().int().positive(),
  height: z.number().int().positive()
})
export type Rect = z.infer<typeof Rect>

/** The window's normal (not maximised) bounds and whether it was maximised. */
export const SavedWindowState = z.object({ bounds: Rect, maximized: z.boolean() })
export type SavedWindowState = z.infer<typeof SavedWindowState>

export interface WindowSize {
  width: number
  height: number
  minWidth: number
  minHeight: number
}

export interface RestoredWindowState {
  /** Bounds to create the window with; without x/y Electron centres it. */
  bounds: { x?: number; y?: number; width: number; height: number }
  maximized: boolean
}

/** A window showing less than this share of itself on any display was left on a screen that is gone. */
const MIN_VISIBLE_SHARE = 0.25

function intersectionArea(a: Rect, b: Rect): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return width > 0 && height > 0 ? width * height : 0
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max))
}

/** Fits a size into a work area, never below the window's minimum unless the area is smaller. */
function fitSize(
  width: number,
  height: number,
  area: Rect,
  size: WindowSize
): { width: number; height: number } {
  return {
    width: Math.min(Math.max(width, size.minWidth), area.width),
    height: Math.min(Math.max(height, size.minHeight), area.height)
  }
}

/**
 * Where the window opens: where it was, kept inside the display it was mostly on; centred on the
 * primary display when that display is gone (a monitor unplugged) or nothing was saved.
 * `workAreas` are the displays' work areas (without task bars and docks).
 */
export function restoreWindowState(
  saved: SavedWindowState | null,
  screen: { workAreas: Rect[]; primary: Rect },
  size: WindowSize
): RestoredWindowState {
  if (!saved) return { bounds: fitSize(size.width, size.height, screen.primary, size), maximized: false }
  const windowArea = saved.bounds.width * saved.bounds.height
  let best: Rect | undefined
  let bestArea = 0
  for (const area of screen.workAreas) {
    const shared = intersectionArea(saved.bounds, area)
    if (shared > bestArea) [best, bestArea] = [area, shared]
  }
  if (!best || bestArea < windowArea * MIN_VISIBLE_SHARE) {
    const fitted = fitSize(saved.bounds.width, saved.bounds.height, screen.primary, size)
    return {
      bounds: {
        ...fitted,
        x: Math.round(screen.primary.x + (screen.primary.width - fitted.width) / 2),
        y: Math.round(screen.primary.y + (screen.primary.height - fitted.height) / 2)
      },
      maximized: saved.maximized
    }
  }
  const fitted = fitSize(saved.bounds.width, saved.bounds.height, best, size)
  return {
    bounds: {
      ...fitted,
      x: clamp(saved.bounds.x, best.x, best.x + best.width - fitted.width),
      y: clamp(saved.bounds.y, best.y, best.y + best.height - fitted.height)
    },
    maximized: saved.maximized
  }
}

/** Reads the saved state; a missing or damaged file means "nothing saved". */
export function loadWindowState(file: string): SavedWindowState | null {
  try {
    const parsed = SavedWindowState.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** Writes through a temp file so a crash mid-write never leaves half a file. */
export function saveWindowState(file: string, state: SavedWindowState): void {
  mkdirSync(dirname(file), { recursive: true })
  const temp = `${file}.tmp`
  writeFileSync(temp, JSON.stringify(state))
  renameSync(temp, file)
}

/** Saves the window's bounds shortly after it moves or resizes, and when it closes. */
export function trackWindowState(window: BrowserWindow, file: string, log: (message: string) => void): void {
  let timer: NodeJS.Timeout | undefined
  const save = () => {
    clearTimeout(timer)
    if (window.isDestroyed()) return
    const bounds = window.getNormalBounds()
    try {
      saveWindowState(file, { bounds, maximized: window.isMaximized() })
    } catch (error) {
      log(`could not save the window position: ${String(error)}`)
    }
  }
  const later = () => {
    clearTimeout(timer)
    timer = setTimeout(save, 500)
  }
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const)
    window.on(event as 'resize', later)
  window.on('close', save)
}
