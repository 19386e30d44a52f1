import type { KeyValueRow } from '../mcp/KeyValueEditor.vue'

/** An env map as editable rows (masked secrets stay masked: sending the mask back keeps them). */
export function toRows(map: Record<string, string> = {}): KeyValueRow[] {
  return Object.entries(map).map(([key, value]) => ({ key, value }))
}

/** Rows back to an env map; rows without a name are dropped. */
export function fromRows(rows: readonly KeyValueRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((r) => r.key.trim()).map((r) => [r.key.trim(), r.value]))
}
