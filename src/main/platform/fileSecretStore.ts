import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import type { SecretStore } from './types'

/** How the bytes of the secrets file are protected at rest (Electron: safeStorage). */
export interface SecretCodec {
  encode(plain: string): string
  decode(stored: string): string
}

const identity: SecretCodec = { encode: (s) => s, decode: (s) => s }

/**
 * Secrets in one JSON file, mode 0600, written atomically. The headless host uses it as is;
 * the Electron platform passes a safeStorage codec so values are encrypted by the OS keychain.
 */
export class FileSecretStore implements SecretStore {
  private cache: Record<string, string> | undefined

  constructor(
    private readonly file: string,
    private readonly codec: SecretCodec = identity
  ) {}

  async get(key: string): Promise<string | undefined> {
    const stored = this.load()[key]
    return stored === undefined ? undefined : this.codec.decode(stored)
  }

  async has(key: string): Promise<boolean> {
    return key in this.load()
  }

  async set(key: string, value: string): Promise<void> {
    this.save({ ...this.load(), [key]: this.codec.encode(value) })
  }

  async delete(key: string): Promise<void> {
    const next = { ...this.load() }
    if (!(key in next)) return
    delete next[key]
    this.save(next)
  }

  private load(): Record<string, string> {
    if (this.cache) return this.cache
    this.cache = existsSync(this.file)
      ? (JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, string>)
      : {}
    return this.cache
  }

  private save(values: Record<string, string>): void {
    mkdirSync(dirname(this.file), { recursive: true })
    const tmp = `${this.file}.${process.pid}.tmp`
    writeFileSync(tmp, JSON.stringify(values, null, 2), { mode: 0o600 })
    chmodSync(tmp, 0o600)
    renameSync(tmp, this.file)
    this.cache = values
  }
}
