import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tightenDataFolderModes } from '../../../src/main/presenter/hygiene/dataFolderModes'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()
const modeOf = (path: string): number => statSync(path).mode & 0o777

describe.skipIf(process.platform === 'win32')(
  'data folder modes (POSIX; Windows has no modes to fix)',
  () => {
    it('makes the data folder 0700 and the database and secrets files 0600 when they are looser', () => {
      const dataDir = join(tempDir(), 'data')
      mkdirSync(dataDir, { mode: 0o755 })
      chmodSync(dataDir, 0o755)
      const files = ['deepchat.db', 'deepchat.db-wal', 'deepchat.db-shm', 'secrets.json', 'notes.txt'].map(
        (name) => join(dataDir, name)
      )
      for (const file of files) {
        writeFileSync(file, 'x')
        chmodSync(file, 0o644)
      }
      const changed = tightenDataFolderModes({
        dataDir,
        databaseFile: 'deepchat.db',
        secretsFiles: [join(dataDir, 'secrets.json')]
      })
      expect(changed.sort()).toEqual([dataDir, ...files.slice(0, 4)].sort())
      expect(modeOf(dataDir)).toBe(0o700)
      for (const file of files.slice(0, 4)) expect(modeOf(file)).toBe(0o600)
      expect(modeOf(join(dataDir, 'notes.txt'))).toBe(0o644)
    })

    it('keeps stricter modes, skips missing files and never follows a symlink', () => {
      const root = tempDir()
      const dataDir = join(root, 'data')
      mkdirSync(dataDir)
      chmodSync(dataDir, 0o700)
      writeFileSync(join(dataDir, 'deepchat.db'), 'x')
      chmodSync(join(dataDir, 'deepchat.db'), 0o400)
      const elsewhere = join(root, 'elsewhere.json')
      writeFileSync(elsewhere, 'x')
      chmodSync(elsewhere, 0o644)
      symlinkSync(elsewhere, join(dataDir, 'secrets.json'))
      const changed = tightenDataFolderModes({
        dataDir,
        databaseFile: 'deepchat.db',
        secretsFiles: [join(dataDir, 'secrets.json'), join(dataDir, 'missing.json')]
      })
      expect(changed).toEqual([])
      expect(modeOf(join(dataDir, 'deepchat.db'))).toBe(0o400)
      expect(modeOf(elsewhere)).toBe(0o644)
    })
  }
)
