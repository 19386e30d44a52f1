import type { ShortcutStatus } from '@shared/types/desktop'
import { globalShortcutProblem } from '@shared/accelerator'

/** Electron's `globalShortcut`, narrowed to what the binding uses (tests pass a fake). */
export interface ShortcutRegistry {
  register(accelerator: string, callback: () => void): boolean
  unregister(accelerator: string): void
}

/**
 * Keeps the one global shortcut that shows the window in step with the setting. A shortcut that
 * is malformed or taken by another app is reported, never thrown: the app keeps working without it.
 */
export class ShortcutBinding {
  private registered: string | null = null
  private current: ShortcutStatus | null = null

  constructor(
    private readonly registry: ShortcutRegistry,
    private readonly onPressed: () => void
  ) {}

  get status(): ShortcutStatus | null {
    return this.current
  }

  apply(accelerator: string): ShortcutStatus | null {
    if (accelerator === this.registered) return this.current
    this.release()
    if (accelerator === '') return (this.current = null)
    const problem = globalShortcutProblem(accelerator)
    if (problem) return (this.current = { accelerator, registered: false, problem })
    let ok: boolean
    try {
      ok = this.registry.register(accelerator, this.onPressed)
    } catch (error) {
      return (this.current = {
        accelerator,
        registered: false,
        problem: error instanceof Error ? error.message : String(error)
      })
    }
    if (!ok) {
      return (this.current = {
        accelerator,
        registered: false,
        problem:
          'Another application already uses this shortcut, or the desktop does not allow global shortcuts'
      })
    }
    this.registered = accelerator
    return (this.current = { accelerator, registered: true, problem: null })
  }

  release(): void {
    if (this.registered) this.registry.unregister(this.registered)
    this.registered = null
    this.current = null
  }
}
