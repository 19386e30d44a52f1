import type { SearchEngine } from '@shared/types/webSearch'
import type { SearchAdapter } from './http'
import { tavily } from './tavily'
import { brave } from './brave'
import { serpapi } from './serpapi'
import { exa } from './exa'
import { jina } from './jina'
import { searxng } from './searxng'

export type { EngineRequest, RawResult, SearchAdapter } from './http'

export const SEARCH_ADAPTERS: Record<SearchEngine, SearchAdapter> = {
  tavily,
  brave,
  serpapi,
  exa,
  jina,
  searxng
}
