import { onBeforeUnmount, shallowReactive } from 'vue'

/** Marks the element whose scrolling decides which pages of a long reply are near. */
export const SCROLL_ROOT_ATTRIBUTE = 'data-scroll-root'

// Pages within this distance of the visible part of the list stay rendered: scrolling meets
// rendered text, not boxes waiting for it.
const NEAR_MARGIN = '3000px 0px'
// A resize reflows text, so the remembered heights are stale: forget them once it settles.
const RESIZE_SETTLE_MS = 250

/**
 * Which full pages of a long markdown view are far from the viewport, with their heights. Those
 * are rendered as empty boxes of the same height, so the DOM, and with it the work of every
 * frame (style, layout, pre-paint, paint, hit testing), stays the size of what is near the
 * viewport however long the reply grows. Nothing else skips rendering (no content-visibility),
 * so a page is always laid out for real when it leaves and the height its box keeps is exact.
 * Without a scroll root (a view outside the chat list) nothing is hidden.
 */
export function useOffscreenPages() {
  /** Page index → its height in px while it is far away. */
  const far = shallowReactive(new Map<number, number>())
  let observer: IntersectionObserver | null = null
  let observed = new WeakSet<Element>()
  let resizeTimer: ReturnType<typeof setTimeout> | undefined

  function onIntersect(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const index = Number((entry.target as HTMLElement).dataset.page)
      if (entry.isIntersecting) far.delete(index)
      // A detached page reports no size: it is gone, not far.
      else if (entry.target.isConnected && entry.boundingClientRect.height > 0)
        far.set(index, entry.boundingClientRect.height)
    }
  }

  /** Watches a full page's element (a template ref callback; repeated calls are free). */
  function track(element: unknown): void {
    if (!(element instanceof Element) || observed.has(element)) return
    const root = element.closest(`[${SCROLL_ROOT_ATTRIBUTE}]`)
    if (!root || typeof IntersectionObserver === 'undefined') return
    observer ??= new IntersectionObserver(onIntersect, { root, rootMargin: NEAR_MARGIN })
    observed.add(element)
    observer.observe(element)
  }

  /** Everything is shown again (the text was replaced, or the layout changed). */
  function reset(): void {
    observer?.disconnect()
    observer = null
    observed = new WeakSet()
    far.clear()
  }

  function onResize(): void {
    clearTimeout(resizeTimer)
    if (far.size > 0) resizeTimer = setTimeout(reset, RESIZE_SETTLE_MS)
  }
  window.addEventListener('resize', onResize)
  onBeforeUnmount(() => {
    window.removeEventListener('resize', onResize)
    clearTimeout(resizeTimer)
    observer?.disconnect()
  })

  return { far, track, reset }
}
