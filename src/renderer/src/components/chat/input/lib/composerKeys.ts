/**
 * ArrowUp in an empty composer edits the last message the user sent: its row's own Edit button
 * is pressed, so editing works exactly as with the mouse. False when no message is on screen.
 */
export function editLastMessage(root: ParentNode = document): boolean {
  const rows = root.querySelectorAll<HTMLElement>('[data-testid="user-message"]')
  const button = rows[rows.length - 1]?.querySelector<HTMLButtonElement>('[data-testid="user-edit"]')
  if (!button || button.disabled) return false
  button.click()
  return true
}
