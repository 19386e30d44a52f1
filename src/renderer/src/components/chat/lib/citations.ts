import type { MessageBlock } from '@shared/types/blocks'
import { knowledgeSourcesOf, type KnowledgeSource } from '@shared/types/knowledge'
import { webSourcesOf, type ShownSource } from './webSources'
import { isBuiltinSearch } from './searchTools'

/** What an answer's [n] points to: a knowledge chunk (opens in the viewer) or a web page. */
export type CitedSource =
  { kind: 'knowledge'; source: KnowledgeSource } | { kind: 'web'; source: ShownSource }

/** The numbered sources of a built-in search call's result ([] for any other block). */
export function searchSourcesOf(block: MessageBlock): CitedSource[] {
  if (block.kind !== 'tool_call' || block.status !== 'success') return []
  const call = block.toolCall
  if (!call || call.isError) return []
  if (isBuiltinSearch(call, 'knowledge_search'))
    return knowledgeSourcesOf(call.response).map((source) => ({ kind: 'knowledge', source }))
  if (isBuiltinSearch(call, 'web_search'))
    return webSourcesOf(call.response).map((source) => ({ kind: 'web', source }))
  return []
}

/** The pages a provider's own web search cited for a text block (http(s) only). */
function ownSourcesOf(block: MessageBlock): CitedSource[] {
  if (block.kind !== 'content') return []
  return (block.data?.sources ?? [])
    .filter((s) => /^https?:\/\//i.test(s.url))
    .map((s) => ({ kind: 'web', source: { index: s.index, title: s.title, site: s.site, url: s.url } }))
}

/**
 * For each block of an answer, the sources its [n] marks can cite: those of the search calls
 * before it, the latest call winning when two number a source the same (each search numbers
 * from 1), and a text block's own provider-cited pages over those. Keyed by block id; blocks
 * before any search are left out.
 */
export function citationsByBlock(blocks: readonly MessageBlock[]): Map<string, Map<number, CitedSource>> {
  const result = new Map<string, Map<number, CitedSource>>()
  let current = new Map<number, CitedSource>()
  for (const block of blocks) {
    const found = searchSourcesOf(block)
    if (found.length) {
      current = new Map(current)
      for (const cited of found) current.set(cited.source.index, cited)
    }
    const own = ownSourcesOf(block)
    if (own.length)
      result.set(block.id, new Map([...current, ...own.map((c) => [c.source.index, c] as const)]))
    else if (current.size) result.set(block.id, current)
  }
  return result
}
