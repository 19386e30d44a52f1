import { describe, expect, it } from 'vitest'
import {
  StorageFaultError,
  storageFaultKindOf
} from '../../../src/main/presenter/sqlitePresenter/storageFaults'

const withCode = (code: unknown) => Object.assign(new Error('x'), { code })

describe('which errors are storage faults', () => {
  it("names SQLite's disk-full, I/O and read-only codes, and nothing else", () => {
    expect(storageFaultKindOf(withCode('SQLITE_FULL'))).toBe('full')
    expect(storageFaultKindOf(withCode('SQLITE_IOERR_WRITE'))).toBe('io')
    expect(storageFaultKindOf(withCode('SQLITE_IOERR'))).toBe('io')
    expect(storageFaultKindOf(withCode('SQLITE_READONLY_DBMOVED'))).toBe('readonly')
    expect(storageFaultKindOf(new StorageFaultError('folder_gone', '/d'))).toBe('folder_gone')
    for (const other of [
      'SQLITE_IOERR_NOMEM',
      'SQLITE_CONSTRAINT',
      'SQLITE_FULLX',
      'ENOSPC',
      'EROFS',
      42,
      undefined
    ])
      expect(storageFaultKindOf(withCode(other))).toBeNull()
    expect(storageFaultKindOf(null)).toBeNull()
    expect(storageFaultKindOf('SQLITE_FULL')).toBeNull()
  })
})
