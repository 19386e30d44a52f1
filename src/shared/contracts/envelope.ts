import { z } from 'zod'

/** Error codes every transport understands; domains may add their own strings. */
export const BridgeErrorCode = {
  invalidInput: 'invalid_input',
  invalidOutput: 'invalid_output',
  unknownRoute: 'unknown_route',
  internal: 'internal',
  transport: 'transport'
} as const

export const ErrorEnvelope = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional()
})
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>

export type RouteResult = { ok: true; data: unknown } | { ok: false; error: ErrorEnvelope }

/** Messages on the WebSocket between the browser and the headless host. */
export const ClientMessage = z.object({
  type: z.literal('invoke'),
  id: z.number().int().nonnegative(),
  route: z.string().max(200),
  input: z.unknown()
})
export type ClientMessage = z.infer<typeof ClientMessage>

export type ServerMessage =
  { type: 'result'; id: number; result: RouteResult } | { type: 'event'; name: string; payload: unknown }
