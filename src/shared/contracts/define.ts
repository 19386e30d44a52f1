import { z } from 'zod'

/** A request/response call from the renderer to main. Names are `domain.verb`. */
export interface RouteDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  readonly name: string
  readonly input: I
  readonly output: O
}

/** A push from main to the renderer. Names are `domain.noun.pastTense`. */
export interface EventDef<P extends z.ZodType = z.ZodType> {
  readonly name: string
  readonly payload: P
}

export type RouteInput<R extends RouteDef> = z.input<R['input']>
export type RouteOutput<R extends RouteDef> = z.output<R['output']>
export type EventPayload<E extends EventDef> = z.output<E['payload']>

export function defineRoute<I extends z.ZodType, O extends z.ZodType>(def: {
  name: string
  input: I
  output: O
}): RouteDef<I, O> {
  return Object.freeze({ ...def })
}

export function defineEvent<P extends z.ZodType>(def: { name: string; payload: P }): EventDef<P> {
  return Object.freeze({ ...def })
}
