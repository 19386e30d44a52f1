import { randomUUID } from 'node:crypto'
import { PermissionRule, RuleDraft } from '@shared/types/permission'
import { AppError } from '@shared/errors'

interface RuleRow {
  id: string
  kind: string
  pattern: string
  effect: string
  created_at: number
}

export interface RuleDb {
  prepare(sql: string): {
    all(...params: unknown[]): unknown[]
    get(...params: unknown[]): unknown
    run(...params: unknown[]): { changes: number }
  }
}

/**
 * The persisted "Always allow" and deny rules (table `permission_rules`, migration 3). Reads are
 * served from memory; every write goes to SQLite first so a crash never loses a decision.
 */
export class PermissionRuleStore {
  private cache: PermissionRule[] | null = null

  constructor(private readonly sqlite: { db: RuleDb }) {}

  list(): PermissionRule[] {
    if (!this.cache) {
      const rows = this.sqlite.db
        .prepare(
          'SELECT id, kind, pattern, effect, created_at FROM permission_rules ORDER BY created_at, rowid'
        )
        .all() as RuleRow[]
      // A row that no longer parses (hand-edited database) is skipped, not fatal.
      this.cache = rows.flatMap((row) => {
        const parsed = PermissionRule.safeParse({
          id: row.id,
          kind: row.kind,
          pattern: row.pattern,
          effect: row.effect,
          createdAt: row.created_at
        })
        return parsed.success ? [parsed.data] : []
      })
    }
    return this.cache
  }

  /** Adds a rule; adding the same kind, pattern and effect again returns the existing one. */
  add(draft: RuleDraft): PermissionRule {
    const parsed = RuleDraft.safeParse(draft)
    if (!parsed.success)
      throw new AppError(
        'invalid_rule',
        `Invalid rule: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`
      )
    const { kind, pattern, effect } = parsed.data
    const existing = this.list().find((r) => r.kind === kind && r.pattern === pattern && r.effect === effect)
    if (existing) return existing
    const rule: PermissionRule = { id: randomUUID(), kind, pattern, effect, createdAt: Date.now() }
    this.sqlite.db
      .prepare('INSERT INTO permission_rules (id, kind, pattern, effect, created_at) VALUES (?, ?, ?, ?, ?)')
      .run(rule.id, rule.kind, rule.pattern, rule.effect, rule.createdAt)
    this.cache = null
    return rule
  }

  remove(id: string): boolean {
    const { changes } = this.sqlite.db.prepare('DELETE FROM permission_rules WHERE id = ?').run(id)
    this.cache = null
    return changes > 0
  }
}
