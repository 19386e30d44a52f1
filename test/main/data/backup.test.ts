import { afterEach, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import * as tar from 'tar'
import { SqlitePresenter } from '../../../src/main/presenter/sqlitePresenter'
import { TapePresenter } from '../../../src/main/presenter/tapePresenter'
import { SessionPresenter } from '../../../src/main/presenter/sessionPresenter'
import { Workspaces } from '../../../src/main/presenter/sessionPresenter/workspaces'
import {
  PENDING_RESTORE,
  applyPendingRestore,
  inspectBackup,
  restoreBackup,
  schemaVersionOf,
  writeBackup
} from '../../../src/main/presenter/dataPresenter/backup'
import { DataPresenter } from '../../../src/main/presenter/dataPresenter'
import { useTempDirs } from '../helpers/tempDir'

const open: SqlitePresenter[] = []
afterEach(() => {
  for (const sqlite of open.splice(0)) sqlite.close()
})

function openData(dataDir: string) {
  const sqlite = new SqlitePresenter({ file: join(dataDir, 'deepchat.db') })
  open.push(sqlite)
  const sessions = new SessionPresenter({
    sqlite,
    tape: new TapePresenter({ sqlite }),
    events: { emit: () => {} },
    workspaces: new Workspaces({ dataDir })
  })
  return { sqlite, sessions }
}

/** Every chat with its messages' text, as a person would compare two installs. */
function chatsOf(sessions: SessionPresenter) {
  return sessions.list({ limit: 100 }).sessions.map((s) => ({
    title: s.title,
    messages: sessions.messages
      .list(s.id, { limit: 200 })
      .messages.map((m) => [m.role, m.content?.text ?? m.blocks.map((b) => b.text).join('')])
  }))
}

describe('backup and restore', () => {
  const tempDir = useTempDirs()

  function seededDataDir() {
    const dataDir = tempDir()
    const { sqlite, sessions } = openData(dataDir)
    for (const title of ['Trip to Lisbon', 'Tax questions']) {
      const chat = sessions.create({ title })
      sessions.messages.appendUserMessage(chat.id, { text: `About ${title}?` })
      const reply = sessions.messages.createAssistantMessage(chat.id)
      sessions.messages.finalizeAssistantMessage(reply.id, {
        status: 'sent',
        blocks: [
          {
            id: 'c',
            kind: 'content',
            status: 'success',
            text: `Answer on ${title}`,
            createdAt: 1,
            updatedAt: 1
          }
        ]
      })
    }
    mkdirSync(join(dataDir, 'skills', 'haiku'), { recursive: true })
    writeFileSync(join(dataDir, 'skills', 'haiku', 'SKILL.md'), '# Haiku\nWrite haiku.')
    const secretsFile = join(dataDir, 'secrets.enc.json')
    writeFileSync(secretsFile, '{"provider:openai":"sk-secret"}')
    const source = {
      db: sqlite.db,
      dataDir,
      secretsFile,
      schemaVersion: schemaVersionOf(sqlite.db),
      appVersion: '0.1.0',
      folder: () => join(dataDir, 'backups')
    }
    return { dataDir, sessions, source, secretsFile }
  }

  it('restores into an empty data folder the same chats and skills, without the secrets', async () => {
    const { sessions, source } = seededDataDir()
    const archive = join(tempDir(), 'backup.tar.gz')
    const manifest = writeBackup(source, archive)
    expect(manifest.includesSecrets).toBe(false)
    const entries: string[] = []
    await tar.list({ file: archive, onReadEntry: (e) => entries.push(e.path) })
    expect(entries.some((p) => p.includes('secrets'))).toBe(false)

    const target = tempDir()
    const secretsFile = join(target, 'secrets.enc.json')
    restoreBackup(archive, target, { schemaVersion: source.schemaVersion, secretsFile })
    expect(chatsOf(openData(target).sessions)).toEqual(chatsOf(sessions))
    expect(chatsOf(sessions)).toHaveLength(2)
    expect(readFileSync(join(target, 'skills', 'haiku', 'SKILL.md'), 'utf8')).toBe('# Haiku\nWrite haiku.')
    expect(existsSync(secretsFile)).toBe(false)
    expect(readdirSync(target).filter((f) => f.startsWith('.restore-'))).toEqual([])
  })

  it('carries the secrets file only when the user opts in', async () => {
    const { source } = seededDataDir()
    const archive = join(tempDir(), 'with-secrets.tar.gz')
    expect(writeBackup(source, archive, { includeSecrets: true }).includesSecrets).toBe(true)
    const target = tempDir()
    const secretsFile = join(target, 'secrets.enc.json')
    restoreBackup(archive, target, { schemaVersion: source.schemaVersion, secretsFile })
    expect(readFileSync(secretsFile, 'utf8')).toBe('{"provider:openai":"sk-secret"}')
  })

  it('replaces the chats of an existing data folder', async () => {
    const { sessions, source } = seededDataDir()
    const archive = join(tempDir(), 'backup.tar.gz')
    writeBackup(source, archive)
    const target = tempDir()
    const existing = openData(target)
    existing.sessions.create({ title: 'Only here' })
    existing.sqlite.close()
    restoreBackup(archive, target, {
      schemaVersion: source.schemaVersion,
      secretsFile: join(target, 's')
    })
    expect(chatsOf(openData(target).sessions)).toEqual(chatsOf(sessions))
  })

  it('refuses a backup from a newer schema, and a file that is not a backup, changing nothing', async () => {
    const { source } = seededDataDir()
    const archive = join(tempDir(), 'backup.tar.gz')
    writeBackup(source, archive)
    const target = tempDir()
    writeFileSync(join(target, 'deepchat.db'), 'untouched')
    const older = { schemaVersion: source.schemaVersion - 1, secretsFile: join(target, 's') }
    expect(() => restoreBackup(archive, target, older)).toThrow(/newer version of the app/)
    const junk = join(tempDir(), 'junk.tar.gz')
    writeFileSync(junk, 'not an archive')
    expect(() => inspectBackup(junk, tempDir(), source.schemaVersion)).toThrow(/not a readable backup/)
    expect(readFileSync(join(target, 'deepchat.db'), 'utf8')).toBe('untouched')
    expect(readdirSync(target)).toEqual(['deepchat.db'])
  })

  it('backs up from the running app into backups/ and stages a checked restore for the next start', () => {
    const { dataDir, sessions, source } = seededDataDir()
    const data = new DataPresenter({
      sessions,
      backup: source,
      now: () => Date.parse('2026-03-01T10:00:00Z')
    })
    const made = data.backup({ includeSecrets: false })
    expect(made.path).toBe(join(dataDir, 'backups', 'deepchat-backup-2026-03-01-10-00-00.tar.gz'))
    expect(made.bytes).toBeGreaterThan(0)
    const junk = join(tempDir(), 'junk.tar.gz')
    writeFileSync(junk, 'nope')
    expect(() => data.stageRestore(junk)).toThrow(/not a readable backup/)
    expect(existsSync(join(dataDir, PENDING_RESTORE))).toBe(false)
    expect(data.stageRestore(made.path).manifest.folders).toEqual(['skills', 'scratch'])
    expect(existsSync(join(dataDir, PENDING_RESTORE))).toBe(true)
  })

  it('applies a restore confirmed in the running app at the next start, once', async () => {
    const { sessions, source } = seededDataDir()
    const target = tempDir()
    writeBackup(source, join(target, PENDING_RESTORE))
    const options = { schemaVersion: source.schemaVersion, secretsFile: join(target, 's') }
    expect(applyPendingRestore(target, options)).not.toBeNull()
    expect(existsSync(join(target, PENDING_RESTORE))).toBe(false)
    expect(applyPendingRestore(target, options)).toBeNull()
    expect(chatsOf(openData(target).sessions)).toEqual(chatsOf(sessions))
  })
})
