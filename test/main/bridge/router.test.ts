import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineRoute } from '@shared/contracts/define'
import { AppError } from '@shared/errors'
import { INTERNAL_MESSAGE, Router } from '../../../src/main/bridge/router'

const ctx = { transport: 'test', clientId: 't' } as const

const addNumbers = defineRoute({
  name: 'math.add',
  input: z.object({ a: z.number(), b: z.number() }).strict(),
  output: z.object({ sum: z.number() })
})

function routerWith(handler: (input: { a: number; b: number }) => unknown): Router {
  const router = new Router()
  router.handle(addNumbers, handler as never)
  return router
}

describe('Router', () => {
  it('runs a valid call and returns the validated output', async () => {
    const router = routerWith(({ a, b }) => ({ sum: a + b }))
    await expect(router.invoke('math.add', { a: 2, b: 3 }, ctx)).resolves.toEqual({
      ok: true,
      data: { sum: 5 }
    })
  })

  it('rejects bad input with a message naming the bad field, without calling the handler', async () => {
    let called = false
    const router = routerWith(() => {
      called = true
      return { sum: 0 }
    })
    const result = await router.invoke('math.add', { a: 1, b: 'two' }, ctx)
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.code).toBe('invalid_input')
    expect(result.error.message).toContain('b:')
    expect(result.error.details).toMatchObject({ issues: [{ path: ['b'] }] })
    expect(called).toBe(false)
  })

  it('rejects unexpected extra fields in strict inputs', async () => {
    const router = routerWith(({ a, b }) => ({ sum: a + b }))
    const result = await router.invoke('math.add', { a: 1, b: 2, evil: true }, ctx)
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('refuses an output that breaks the contract', async () => {
    const router = routerWith(() => ({ sum: 'not a number' }))
    const result = await router.invoke('math.add', { a: 1, b: 2 }, ctx)
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_output' } })
  })

  it('rejects an unknown route', async () => {
    const router = routerWith(() => ({ sum: 0 }))
    const result = await router.invoke('math.divide', {}, ctx)
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'unknown_route', message: 'Unknown route: math.divide' }
    })
    expect(await router.invoke(42, {}, ctx)).toMatchObject({ ok: false, error: { code: 'unknown_route' } })
  })

  it('keeps the code of an AppError and hides other errors behind `internal`', async () => {
    const coded = routerWith(() => {
      throw new AppError('not_found', 'no such thing', { id: 7 })
    })
    expect(await coded.invoke('math.add', { a: 1, b: 1 }, ctx)).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'no such thing', details: { id: 7 } }
    })
    const logged: Array<{ message: string; error: unknown }> = []
    const crashing = new Router((message, error) => logged.push({ message, error }))
    const boom = new TypeError('boom at /home/me/secret/file.ts')
    crashing.handle(addNumbers, () => {
      throw boom
    })
    expect(await crashing.invoke('math.add', { a: 1, b: 1 }, ctx)).toEqual({
      ok: false,
      error: { code: 'internal', message: INTERNAL_MESSAGE }
    })
    // The log gets the error itself, stack and all; the client gets nothing of its text.
    expect(logged).toEqual([{ message: 'route math.add failed', error: boom }])
    expect((logged[0].error as Error).stack).toContain('router.test.ts')
  })

  it('does not take a foreign error with a string code (errno, SQLite) for one of ours', async () => {
    const foreign = [
      Object.assign(new Error("ENOENT: no such file or directory, open '/home/me/x'"), { code: 'ENOENT' }),
      Object.assign(new Error('unterminated string'), { code: 'SQLITE_ERROR' })
    ]
    for (const error of foreign) {
      const logged: unknown[] = []
      const router = new Router((_message, e) => logged.push(e))
      router.handle(addNumbers, () => {
        throw error
      })
      expect(await router.invoke('math.add', { a: 1, b: 1 }, ctx)).toEqual({
        ok: false,
        error: { code: 'internal', message: INTERNAL_MESSAGE }
      })
      expect(logged).toEqual([error])
    }
  })

  it('refuses to register the same route twice', () => {
    const router = routerWith(() => ({ sum: 0 }))
    expect(() => router.handle(addNumbers, () => ({ sum: 0 }))).toThrow(/registered twice/)
  })

  it('call() rethrows the envelope as an AppError with its code', async () => {
    const router = routerWith(() => ({ sum: 0 }))
    await expect(router.call(addNumbers, { a: 1, b: 'x' as never })).rejects.toMatchObject({
      name: 'AppError',
      code: 'invalid_input'
    })
  })
})
