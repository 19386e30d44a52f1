import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js'
import { MAX_MESSAGE_BYTES } from './stdioLineGuard'

const TOO_BIG = `The server sent a message larger than ${MAX_MESSAGE_BYTES / (1024 * 1024)} MB; it was dropped`

/**
 * A fetch for the http/sse transports that refuses any single message over 10 MB instead of
 * buffering it: a JSON answer (by Content-Length, or while it streams) fails just the request it
 * answers, with the reason; an event in an SSE stream that grows past it ends that stream (the
 * SDK reports the error and reconnects the stream; a call waiting on it runs into its timeout).
 * Redirects and bodiless answers pass untouched.
 */
export function sizeCappedFetch(base: FetchLike = fetch, maxBytes = MAX_MESSAGE_BYTES): FetchLike {
  return async (url, init) => {
    const response = await base(url, init)
    if (!response.ok || !response.body) return response
    const eventStream = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    const declared = Number(response.headers.get('content-length'))
    if (!eventStream && declared > maxBytes) {
      await response.body.cancel().catch(() => {})
      throw new Error(TOO_BIG)
    }
    // Bytes of the message being read: the whole body, or the SSE event since the last blank line.
    let size = 0
    let previous = 0
    const guard = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        if (!eventStream) size += chunk.length
        else {
          for (let i = 0; i < chunk.length; i++) {
            const byte = chunk[i]
            if (byte === 10 && previous === 10) size = 0
            else size++
            if (byte !== 13) previous = byte
          }
        }
        if (size > maxBytes) controller.error(new Error(TOO_BIG))
        else controller.enqueue(chunk)
      }
    })
    return new Response(response.body.pipeThrough(guard), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers
    })
  }
}
