/**
 * One Content-Security-Policy for the Electron window and the headless host: scripts only from
 * the app itself; the bridge socket only to loopback (the host) — Electron uses IPC.
 */
const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  // Audio a tool returned plays from a data: URL.
  "media-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self' ws://127.0.0.1:* ws://localhost:*",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'"
]

/** Sent as a response header (Electron's session, the headless host). */
export const CONTENT_SECURITY_POLICY = DIRECTIVES.join('; ')

/** Directives a `<meta>` policy may not carry (browsers ignore them there, with a console error). */
const HEADER_ONLY = ['frame-ancestors', 'report-uri', 'sandbox']

/**
 * The same policy as a `<meta>` tag in the built index.html, for loads that get no header (a
 * `file://` page opened before the session hook, a copied build). Built from the same list.
 */
export const META_CONTENT_SECURITY_POLICY = DIRECTIVES.filter(
  (directive) => !HEADER_ONLY.includes(directive.split(' ')[0])
).join('; ')

/**
 * A Vite plugin (used by electron.vite.config.ts for the renderer) that writes the `<meta>` policy
 * first in the built index.html's head. Build only: the dev server's own scripts are not the app's.
 */
export function contentSecurityPolicyMetaPlugin() {
  return {
    name: 'deepchat-csp-meta',
    apply: 'build' as const,
    transformIndexHtml: () => [
      {
        tag: 'meta',
        attrs: { 'http-equiv': 'Content-Security-Policy', content: META_CONTENT_SECURITY_POLICY },
        injectTo: 'head-prepend' as const
      }
    ]
  }
}
