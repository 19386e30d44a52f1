import { z } from 'zod'
import type { RouteDef, RouteInput, RouteOutput } from '@shared/contracts/define'
import { BridgeErrorCode, type ErrorEnvelope, type RouteResult } from '@shared/contracts/envelope'
import { AppError, isAppError } from '@shared/errors'

export type RouteHandler<R extends RouteDef> = (
  input: z.output<R['input']>,
  context: CallContext
) => Promise<RouteOutput<R> | z.input<R['output']>> | RouteOutput<R> | z.input<R['output']>

/** Who is calling: lets handlers scope work to a window or connection without trusting input. */
export interface CallContext {
  transport: 'electron' | 'websocket' | 'test'
  clientId: string
}

interface Registered {
  def: RouteDef
  handler: (input: unknown, context: CallContext) => unknown
}

/**
 * One router for every transport. It validates input and output against the contract, rejects
 * unknown routes, and turns anything thrown into an `{code, message}` envelope: an AppError keeps
 * its code and message; anything else is logged (with its stack) and becomes `internal` with a
 * neutral message — so no transport ever forwards a raw exception, its text or a stack.
 */
export class Router {
  private readonly routes = new Map<string, Registered>()

  /**
   * `recognize`: maps an error nobody mapped to an AppError the user may see (a storage fault:
   * the disk is full, the database is read-only), or returns null.
   */
  constructor(
    private readonly log: (message: string, error?: unknown) => void = () => {},
    private readonly recognize: (error: unknown) => AppError | null = () => null
  ) {}

  handle<R extends RouteDef>(def: R, handler: RouteHandler<R>): void {
    if (this.routes.has(def.name)) throw new Error(`route ${def.name} is registered twice`)
    this.routes.set(def.name, { def, handler: handler as Registered['handler'] })
  }

  has(name: string): boolean {
    return this.routes.has(name)
  }

  names(): string[] {
    return [...this.routes.keys()].sort()
  }

  async invoke(name: unknown, rawInput: unknown, context: CallContext): Promise<RouteResult> {
    const route = typeof name === 'string' ? this.routes.get(name) : undefined
    if (!route) {
      return failure(BridgeErrorCode.unknownRoute, `Unknown route: ${String(name).slice(0, 200)}`)
    }
    const input = route.def.input.safeParse(rawInput ?? {})
    if (!input.success) {
      return failure(
        BridgeErrorCode.invalidInput,
        `Invalid input for ${route.def.name}: ${describeIssues(input.error)}`,
        { issues: input.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })) }
      )
    }
    let raw: unknown
    try {
      raw = await route.handler(input.data, context)
    } catch (error) {
      if (isAppError(error)) return failure(error.code, error.message, error.details)
      const known = this.recognize(error)
      if (known) return failure(known.code, known.message, known.details)
      // Not ours: a bug or an error nobody mapped. Its text may hold paths or SQL; the log keeps it.
      this.log(`route ${route.def.name} failed`, error)
      return failure(BridgeErrorCode.internal, INTERNAL_MESSAGE)
    }
    const output = route.def.output.safeParse(raw)
    if (!output.success) {
      this.log(`route ${route.def.name} returned an invalid output: ${describeIssues(output.error)}`)
      return failure(
        BridgeErrorCode.invalidOutput,
        `Invalid output from ${route.def.name}: ${describeIssues(output.error)}`
      )
    }
    return { ok: true, data: output.data }
  }

  /** Typed call for tests and in-process callers. Throws the envelope as an AppError. */
  async call<R extends RouteDef>(
    def: R,
    input: RouteInput<R>,
    context?: CallContext
  ): Promise<RouteOutput<R>> {
    const result = await this.invoke(def.name, input, context ?? { transport: 'test', clientId: 'test' })
    if (!result.ok) {
      throw new AppError(result.error.code, result.error.message, result.error.details)
    }
    return result.data as RouteOutput<R>
  }
}

/** What the client learns about an error we did not recognise. */
export const INTERNAL_MESSAGE = 'Something went wrong inside the app. The details are in its log.'

function failure(code: string, message: string, details?: unknown): RouteResult {
  const error: ErrorEnvelope = { code, message }
  if (details !== undefined) error.details = details
  return { ok: false, error }
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ')
}
