// The macOS profile cannot run here: its text is checked rule by rule, including the order that
// makes a narrower rule override a wider one.
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildProfile } from '../../../src/main/presenter/sandbox/profile'
import {
  protectedNamesRegex,
  sbplString,
  seatbeltArgs,
  seatbeltProfile
} from '../../../src/main/presenter/sandbox/seatbelt'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()

function layout() {
  const root = realpathSync(tempDir())
  const home = join(root, 'Users', 'ann')
  const ws = join(home, 'project')
  const dataDir = join(home, 'Library', 'Application Support', 'DeepChat')
  mkdirSync(join(ws, '.git'), { recursive: true })
  mkdirSync(join(dataDir, 'scratch', 'chat-1'), { recursive: true })
  mkdirSync(join(home, '.ssh'))
  const appData = {
    dataDir,
    secretsFiles: [join(dataDir, 'secrets.enc.json')],
    scratchRoot: join(dataDir, 'scratch')
  }
  const extras = {
    dataDir,
    secretPaths: [join(home, '.ssh'), join(home, '.netrc'), join(dataDir, 'secrets.enc.json')],
    tempDirs: ['/private/var/folders/xy/T']
  }
  return { root, home, ws, dataDir, appData, extras }
}

/** Index of the line holding `text`, failing when absent. */
function lineOf(profile: string, text: string): number {
  const index = profile.split('\n').findIndex((line) => line.includes(text))
  expect(index, `no line with ${text} in\n${profile}`).toBeGreaterThanOrEqual(0)
  return index
}

describe.skipIf(process.platform === 'win32')(
  'seatbelt profile (macOS; generated and checked on any POSIX system)',
  () => {
    it('denies network, Unix sockets, home contents, writes outside a writable workspace, protected entries, the data folder and secrets', () => {
      const l = layout()
      const profile = seatbeltProfile(
        buildProfile(
          { workspaceDir: l.ws, writableWorkspace: true },
          { home: l.home, appData: l.appData, privateDirs: [] }
        ),
        l.extras
      )
      expect(profile.startsWith('(version 1)\n(allow default)\n(deny network*)\n')).toBe(true)
      const homeDeny = lineOf(profile, `(deny file-read-data (subpath "${l.home}"))`)
      const readAllow = lineOf(profile, `(allow file-read* (subpath "${l.ws}"))`)
      const writeDeny = lineOf(profile, '(deny file-write*)')
      const writeAllow = lineOf(
        profile,
        `(allow file-write* (subpath "${l.ws}") (subpath "/private/var/folders/xy/T"))`
      )
      const protectedDeny = lineOf(
        profile,
        `(deny file-write* (subpath "${join(l.ws, '.git')}") (subpath "${join(l.ws, '.deepchat')}")`
      )
      const dataDeny = lineOf(profile, `(deny file-read* file-write* (subpath "${l.dataDir}"))`)
      const secretsDeny = lineOf(
        profile,
        `(deny file-read* file-write* (subpath "${join(l.home, '.ssh')}") (subpath "${join(l.home, '.netrc')}")`
      )
      expect(homeDeny).toBeLessThan(readAllow)
      expect(readAllow).toBeLessThan(writeDeny)
      expect(writeDeny).toBeLessThan(writeAllow)
      expect(writeAllow).toBeLessThan(protectedDeny)
      expect(protectedDeny).toBeLessThan(dataDeny)
      expect(dataDeny).toBeLessThan(secretsDeny)
      // Unix sockets are refused by the last rule, after every allow.
      expect(profile.trimEnd().split('\n').at(-1)).toBe(
        '(deny network* (local unix-socket) (remote unix-socket))'
      )
      expect(profile).not.toMatch(/\(allow network/)
      for (const entry of ['.git', '.deepchat', '.vscode', '.idea', '.envrc'])
        expect(profile).toContain(`(subpath "${join(l.ws, entry)}")`)
    })

    it('refuses creating a protected name in any folder of a writable workspace, in any case', () => {
      const l = layout()
      const profile = seatbeltProfile(
        buildProfile(
          { workspaceDir: l.ws, writableWorkspace: true },
          { home: l.home, appData: l.appData, privateDirs: [] }
        ),
        l.extras
      )
      const literal = protectedNamesRegex(l.ws)
      expect(lineOf(profile, `(deny file-write* (regex ${literal}))`)).toBeGreaterThan(
        lineOf(profile, `(allow file-write* (subpath "${l.ws}")`)
      )
      const regex = new RegExp(literal.slice(2, -1))
      for (const path of [
        'sub/.git',
        'sub/.git/config',
        'a/b/.VSCode/tasks.json',
        '.envrc',
        'p/.husky/pre-commit',
        'x/.githooks'
      ])
        expect(regex.test(join(l.ws, path)), path).toBe(true)
      for (const path of ['a/b.vscode', 'src/.gitignore', '.github/workflows/ci.yml', 'envrc', 'husky/x'])
        expect(regex.test(join(l.ws, path)), path).toBe(false)
      expect(regex.test(join(`${l.ws}x`, '.git'))).toBe(false)
    })

    it('allows no workspace writes for a read-only plan', () => {
      const l = layout()
      const profile = seatbeltProfile(
        buildProfile(
          { workspaceDir: l.ws, writableWorkspace: false },
          { home: l.home, appData: l.appData, privateDirs: [] }
        ),
        l.extras
      )
      expect(profile).toContain('(allow file-write* (subpath "/private/var/folders/xy/T"))')
      expect(profile).not.toMatch(new RegExp(`allow file-write\\* \\(subpath "${l.ws}"`))
      expect(profile).not.toContain('.envrc')
    })

    it('does not hide home from a workspace that is home, and still denies the data folder after allowing it', () => {
      const l = layout()
      const profile = seatbeltProfile(
        buildProfile(
          { workspaceDir: l.home, writableWorkspace: true },
          { home: l.home, appData: l.appData, privateDirs: [] }
        ),
        l.extras
      )
      expect(profile).not.toContain('(deny file-read-data')
      expect(lineOf(profile, `(allow file-read* (subpath "${l.home}"))`)).toBeLessThan(
        lineOf(profile, `(deny file-read* file-write* (subpath "${l.dataDir}"))`)
      )
    })

    it('denies the data folder before allowing a scratch workspace inside it', () => {
      const l = layout()
      const scratch = join(l.dataDir, 'scratch', 'chat-1')
      const profile = seatbeltProfile(
        buildProfile(
          { workspaceDir: scratch, writableWorkspace: true },
          { home: l.home, appData: l.appData, privateDirs: [] }
        ),
        l.extras
      )
      const dataDeny = lineOf(profile, `(deny file-read* file-write* (subpath "${l.dataDir}"))`)
      expect(dataDeny).toBeLessThan(lineOf(profile, `(allow file-read* (subpath "${scratch}"))`))
      expect(dataDeny).toBeLessThan(lineOf(profile, `(allow file-write* (subpath "${scratch}")`))
      expect(profile.split('\n').filter((line) => line.includes(`(subpath "${l.dataDir}")`))).toHaveLength(1)
    })

    it('shows toolchain folders under home to reads', () => {
      const l = layout()
      const bin = join(l.home, '.nvm', 'versions', 'node', 'v20.0.0', 'bin')
      mkdirSync(bin, { recursive: true })
      writeFileSync(join(bin, 'node'), '')
      const profile = seatbeltProfile(
        buildProfile(
          { workspaceDir: l.ws, writableWorkspace: false },
          { home: l.home, appData: l.appData, pathEnv: `${bin}:/usr/bin`, privateDirs: [] }
        ),
        l.extras
      )
      expect(profile).toContain(
        `(allow file-read* (subpath "${l.ws}") (subpath "${join(l.home, '.nvm', 'versions', 'node', 'v20.0.0')}"))`
      )
    })

    it('escapes quotes and backslashes in paths and passes the command after the profile', () => {
      expect(sbplString('/Users/a "b"\\c')).toBe('"/Users/a \\"b\\"\\\\c"')
      expect(seatbeltArgs('(version 1)', { file: '/bin/zsh', args: ['-c', 'ls'] })).toEqual([
        '-p',
        '(version 1)',
        '/bin/zsh',
        '-c',
        'ls'
      ])
    })
  }
)
