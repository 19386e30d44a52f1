import { AppError } from '@shared/errors'

/**
 * A presenter that an earlier-built one calls, but that can only be built after it: the
 * domain's real cycles (a subagent tool starts turns on the chat loop that runs the tool; the
 * settings view lists the tools whose model door is those settings). createPresenters declares
 * each link before both ends and connects it the moment the later end exists, before any route,
 * turn or recovery can run; a call through a link not yet connected is a wiring bug and says so.
 */
export class LateLink<T> {
  private target: T | null = null

  constructor(private readonly name: string) {}

  connect(target: T): void {
    if (this.target) throw new AppError('internal', `${this.name} is already connected`)
    this.target = target
  }

  get(): T {
    if (!this.target) throw new AppError('internal', `${this.name} was used before it was built`)
    return this.target
  }
}
