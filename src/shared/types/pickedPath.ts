/**
 * A folder the user picked, as main's picker handed it to the page: `picked:` and 32 url-safe
 * characters. Routes that take a folder from the page take this token (single use, short-lived,
 * bound to the picked folder and the connection that picked it) or a folder main already knows.
 */
export const PICK_TOKEN_PATTERN = /^picked:[A-Za-z0-9_-]{32}$/

export function isPickToken(value: string): boolean {
  return PICK_TOKEN_PATTERN.test(value)
}
