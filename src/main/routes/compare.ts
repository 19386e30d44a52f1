import {
  compareDiscard,
  compareKeep,
  compareList,
  compareRespond,
  compareStart,
  compareStop
} from '@shared/contracts/routes/compare.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerCompareRoutes(router: Router, { compare }: Pick<Presenters, 'compare'>): void {
  router.handle(compareStart, async (input) => ({ compare: await compare.start(input) }))
  router.handle(compareList, ({ sessionId }) => ({ compares: compare.list(sessionId) }))
  router.handle(compareStop, async ({ compareId, index }) => ({
    compare: await compare.stop(compareId, index)
  }))
  router.handle(compareKeep, async ({ compareId, index }) => ({
    compare: await compare.keep(compareId, index)
  }))
  router.handle(compareDiscard, async ({ compareId }) => ({ compare: await compare.discard(compareId) }))
  router.handle(compareRespond, (input) => compare.respond(input))
}
