import { parseHTML } from 'linkedom'
import { Readability } from '@mozilla/readability'
import TurndownService from 'turndown'
import { AppError } from '@shared/errors'
import { safeLink } from './sources'

/** The most of a page read: past it the page is cut, not buffered. */
export const MAX_PAGE_BYTES = 5 * 1024 * 1024
/** The most of the markdown the model gets. */
export const MAX_PAGE_CHARS = 60_000
const MAX_REDIRECTS = 5
const TIMEOUT_MS = 20_000

const TEXT_TYPES = /^(text\/(plain|markdown|csv|x-markdown)|application\/(json|xml)|text\/xml)$/

export interface ReadPage {
  url: string
  title: string
  markdown: string
  truncated: boolean
}

export interface PageReaderDeps {
  fetch: typeof globalThis.fetch
  /** Throws for a host the page may not be read from (private addresses). */
  checkHost: (hostname: string) => Promise<void>
}

/**
 * Reads a page as markdown: http(s) only, each redirect hop checked again (scheme and host),
 * size and time capped, HTML reduced to its article (Readability) and converted (Turndown);
 * plain text types pass as they are; other types are refused.
 */
export async function readPage(
  deps: PageReaderDeps,
  rawUrl: string,
  signal?: AbortSignal
): Promise<ReadPage> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS)
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout
  let url = checkedUrl(rawUrl)
  let response: Response | undefined
  for (let hop = 0; ; hop++) {
    await deps.checkHost(url.hostname)
    try {
      response = await deps.fetch(url.href, {
        redirect: 'manual',
        signal: combined,
        headers: {
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
          'user-agent': 'Mozilla/5.0 (DeepChat Desk web_fetch)'
        }
      })
    } catch (error) {
      if (signal?.aborted) throw error
      if (timeout.aborted)
        throw new AppError('web_fetch_timeout', `${url.host} did not answer within ${TIMEOUT_MS / 1000} s.`)
      // fetch says only "fetch failed"; the reason (refused, DNS, a non-public address) is its cause.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
      throw new AppError(
        'web_fetch_unreachable',
        `${url.host} could not be reached: ${cause instanceof Error ? cause.message : String(cause)}`
      )
    }
    if (response.status < 300 || response.status >= 400) break
    const location = response.headers.get('location')
    await response.body?.cancel()
    if (!location) break
    if (hop >= MAX_REDIRECTS)
      throw new AppError('web_fetch_redirects', `${rawUrl} redirected more than ${MAX_REDIRECTS} times.`)
    url = checkedUrl(new URL(location, url).href)
  }
  if (!response.ok) {
    await response.body?.cancel()
    throw new AppError('web_fetch_http', `${url.host} answered HTTP ${response.status}.`)
  }
  const type = (response.headers.get('content-type') ?? 'text/html').split(';')[0].trim().toLowerCase()
  const isHtml = type === 'text/html' || type === 'application/xhtml+xml'
  if (!isHtml && !TEXT_TYPES.test(type)) {
    await response.body?.cancel()
    throw new AppError(
      'web_fetch_unsupported',
      `${url.href} is ${type}, not a page web_fetch can read as text.`
    )
  }
  const { text, cut } = await readCapped(response)
  const page = isHtml
    ? htmlToMarkdown(text, url.href)
    : { title: url.pathname.split('/').pop() || url.host, markdown: text }
  const truncated = cut || page.markdown.length > MAX_PAGE_CHARS
  return { url: url.href, title: page.title, markdown: page.markdown.slice(0, MAX_PAGE_CHARS), truncated }
}

function checkedUrl(raw: string): URL {
  const url = safeLink(raw)
  if (!url)
    throw new AppError(
      'web_fetch_bad_url',
      `web_fetch reads only http(s) addresses without credentials: ${raw.slice(0, 200)}`
    )
  url.hash = ''
  return url
}

async function readCapped(response: Response): Promise<{ text: string; cut: boolean }> {
  const reader = response.body?.getReader()
  if (!reader) return { text: '', cut: false }
  const chunks: Uint8Array[] = []
  let size = 0
  let cut = false
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.length
    if (size >= MAX_PAGE_BYTES) {
      cut = true
      await reader.cancel()
      break
    }
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks).subarray(0, MAX_PAGE_BYTES)), cut }
}

function turndown(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-'
  })
  service.remove(['script', 'style', 'noscript', 'iframe', 'object', 'embed', 'form', 'button'])
  // Links keep only http(s) targets; images become their alt text (no fetches, no data: URLs).
  service.addRule('safeLinks', {
    filter: 'a',
    replacement: (content, node) => {
      const href = (node as HTMLElement).getAttribute('href') ?? ''
      const link = href && /^https?:/i.test(href) ? safeLink(href) : null
      return link && content.trim() ? `[${content}](${link.href})` : content
    }
  })
  service.addRule('imagesAsAlt', {
    filter: 'img',
    replacement: (_content, node) => {
      const alt = (node as HTMLElement).getAttribute('alt')?.trim()
      return alt ? `[image: ${alt}]` : ''
    }
  })
  return service
}

export function htmlToMarkdown(html: string, baseUrl: string): { title: string; markdown: string } {
  const { document } = parseHTML(html)
  // Relative links become absolute before Readability moves the nodes around.
  for (const anchor of document.querySelectorAll('a[href]')) {
    try {
      anchor.setAttribute('href', new URL(anchor.getAttribute('href') ?? '', baseUrl).href)
    } catch {
      anchor.removeAttribute('href')
    }
  }
  const title = (document.querySelector('title')?.textContent ?? '').trim()
  const article = readable(document as unknown as Document)
  const body = article?.content ?? document.querySelector('body')?.innerHTML ?? html
  const markdown = turndown()
    .turndown(body)
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  return { title: (article?.title ?? title).trim() || title, markdown }
}

/** The page's article, or null when Readability finds none or fails on the markup. */
function readable(document: Document): { title?: string | null; content?: string | null } | null {
  try {
    return new Readability(document).parse()
  } catch {
    return null
  }
}
