/**
 * A key pressed while an input method (Chinese, Japanese, Korean…) is composing: its Enter picks
 * a candidate and its Esc drops the composition, so neither may send, commit or close anything.
 * Chromium and Safari mark the keydown that ends a composition only by keyCode 229 on some
 * platforms, hence both checks.
 */
export function isComposingKey(event: KeyboardEvent): boolean {
  return event.isComposing || event.keyCode === 229
}

/** Enter without Shift that commits text (not one an input method is using). */
export function isCommitEnter(event: KeyboardEvent): boolean {
  return event.key === 'Enter' && !event.shiftKey && !isComposingKey(event)
}
