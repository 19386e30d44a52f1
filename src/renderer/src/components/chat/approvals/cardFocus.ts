import { nextTick, onMounted, watch, type Ref } from 'vue'

/**
 * The keyboard lands on a request's card without being taken from the user: the oldest card
 * takes the focus when it appears (or when the one before it was answered), unless the user is
 * typing somewhere. Focus goes to the card's safe answer (`data-autofocus`).
 */
export function useCardFocus(root: Ref<HTMLElement | null>, isFirst: () => boolean): () => void {
  const focusSafeAnswer = (): void => {
    const target = root.value?.querySelector<HTMLElement>('[data-autofocus]') ?? root.value
    target?.focus({ preventScroll: false })
  }
  onMounted(() => {
    if (isFirst() && focusIsFree()) focusSafeAnswer()
  })
  watch(isFirst, (first) => {
    if (first && focusIsFree()) void nextTick(focusSafeAnswer)
  })
  return focusSafeAnswer
}

/**
 * Nothing holds the focus, the message list does, or the chat input does while empty (the user
 * just sent); never a text field the user is typing in.
 */
export function focusIsFree(): boolean {
  const active = document.activeElement
  if (!active || active === document.body) return true
  if (active instanceof HTMLTextAreaElement && active.closest('[data-testid="chat-input"]'))
    return !active.value
  if (isEditable(active)) return false
  return Boolean(active.closest('[data-testid="message-list"]'))
}

/**
 * After an answer the card leaves and the focus would fall to the page: the next open card takes
 * it (its own watch), and once none is left the composer does, so the user can type on. Focus the
 * user moved elsewhere meanwhile stays where it is.
 */
export async function focusComposerWhenAnswered(stillOpen: () => number): Promise<void> {
  await nextTick()
  if (stillOpen() > 0) return
  const active = document.activeElement
  if (active && active !== document.body && active.isConnected) return
  document.querySelector<HTMLElement>('[data-testid="chat-input-text"]')?.focus()
}

export function isEditable(element: Element): boolean {
  return (
    element instanceof HTMLTextAreaElement ||
    (element instanceof HTMLInputElement && !['checkbox', 'radio', 'button'].includes(element.type)) ||
    (element instanceof HTMLElement && element.isContentEditable)
  )
}
