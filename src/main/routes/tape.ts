import {
  tapeAnchors,
  tapeContext,
  tapeEntries,
  tapeForks,
  tapeInfo,
  tapeSearch
} from '@shared/contracts/routes/tape.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'

export function registerTapeRoutes(router: Router, { tape }: Pick<Presenters, 'tape'>): void {
  router.handle(tapeSearch, ({ tapeId, query, options }) => ({ hits: tape.search(tapeId, query, options) }))
  router.handle(tapeContext, ({ tapeId, entryIds, options }) => tape.context(tapeId, entryIds, options))
  router.handle(tapeInfo, ({ tapeId }) => ({ info: tape.info(tapeId) }))
  router.handle(tapeAnchors, ({ tapeId, limit }) => ({ anchors: tape.anchors(tapeId, limit) }))
  router.handle(tapeEntries, ({ tapeId, afterEntryId, limit }) => ({
    entries: tape.entries(tapeId, { afterEntryId, limit }),
    headEntryId: tape.info(tapeId).headEntryId
  }))
  router.handle(tapeForks, ({ tapeId }) => {
    tape.info(tapeId) // a clear tape_not_found for an unknown tape
    return { forks: tape.forks(tapeId) }
  })
}
