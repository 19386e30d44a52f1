import type Database from 'better-sqlite3'

/** A numbered schema step. Never edit one that has shipped: add the next number instead. */
export interface Migration {
  version: number
  name: string
  up(db: Database.Database): void
}
