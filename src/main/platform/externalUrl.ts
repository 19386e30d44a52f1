import { AppError } from '@shared/errors'

/** The only schemes the OS opener ever gets: the user's browser, nothing else. */
const WEB_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:'])
/** Longer is no address a person follows (OAuth pages are well under this). */
const MAX_URL_LENGTH = 16 * 1024

export type ExternalUrlCheck = { ok: true; href: string } | { ok: false; reason: string }

/**
 * Whether `raw` may leave the app for the OS opener, by allowlist: it must parse as a URL, be
 * http or https, have a host and no user name or password. Everything else (file:, smb:,
 * custom schemes that launch programs, javascript:) is refused with the reason. `href` is the
 * parsed form, which is what gets opened, never the raw text.
 */
export function checkExternalUrl(raw: string): ExternalUrlCheck {
  if (raw.length > MAX_URL_LENGTH)
    return { ok: false, reason: `the address is longer than ${MAX_URL_LENGTH} characters` }
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return { ok: false, reason: 'it is not a valid web address' }
  }
  if (!WEB_SCHEMES.has(url.protocol))
    return { ok: false, reason: `only http and https links open outside the app, not ${url.protocol}` }
  if (!url.hostname) return { ok: false, reason: 'the address has no host' }
  if (url.username || url.password)
    return { ok: false, reason: 'the address carries a user name or password' }
  return { ok: true, href: url.href }
}

/** A short, safe form of a refused address for a message (no control characters, bounded). */
export function shownUrl(raw: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is being removed
  const clean = raw.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
  return clean.length > 200 ? `${clean.slice(0, 200)}…` : clean
}

export function refusedUrlError(raw: string, reason: string): AppError {
  return new AppError('external_url_refused', `Not opened: ${shownUrl(raw)} (${reason})`, { reason })
}

/**
 * The app's one way out to the OS opener: wraps the platform's opener so that only http(s)
 * addresses reach it, in their parsed form; anything else throws `external_url_refused`.
 */
export function httpOnlyOpener(open: (href: string) => Promise<void>): (url: string) => Promise<void> {
  return async (url) => {
    const check = checkExternalUrl(url)
    if (!check.ok) throw refusedUrlError(url, check.reason)
    await open(check.href)
  }
}
