import { copyFileSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { skillsAddFromFolder, skillsList } from '@shared/contracts/routes/agentFeatures.routes'
import { appChooseFolder } from '@shared/contracts/routes/app.routes'
import { chatSendMessage } from '@shared/contracts/routes/chat.routes'
import { configUpdateSettings } from '@shared/contracts/routes/config.routes'
import { dataDownloadBackup, dataRestoreBackup } from '@shared/contracts/routes/data.routes'
import { sessionsCreate, sessionsUpdateSettings } from '@shared/contracts/routes/sessions.routes'
import type { RouteDef, RouteInput, RouteOutput } from '@shared/contracts/define'
import { AppError } from '@shared/errors'
import { createNodePlatform } from '../../../src/main/platform/nodePlatform'
import { createPresenters, type Presenters } from '../../../src/main/presenter'
import { PathGrants } from '../../../src/main/presenter/pathGrants'
import { createRouter } from '../../../src/main/routes'
import type { CallContext } from '../../../src/main/bridge/router'
import type { Platform } from '../../../src/main/platform/types'
import { useTempDirs } from '../helpers/tempDir'

/**
 * Routes that take a folder from the page take only a folder the user picked: the token main's
 * picker issued (once, for the connection that picked, while the folder is still that folder),
 * or a folder main already holds as the user's choice. Through the real router, on real folders.
 */
const tempDir = useTempDirs()
const running: Presenters[] = []
afterEach(async () => {
  for (const presenters of running.splice(0)) await presenters.dispose()
})

const PAGE: CallContext = { transport: 'websocket', clientId: 'ws-1' }
const OTHER_PAGE: CallContext = { transport: 'websocket', clientId: 'ws-2' }

function start(extra: Partial<Platform> = {}) {
  const dataDir = tempDir()
  const presenters = createPresenters(
    { ...createNodePlatform({ dataDir, log: () => {} }), ...extra },
    {
      log: () => {}
    }
  )
  running.push(presenters)
  const router = createRouter(presenters)
  const call = <R extends RouteDef>(def: R, input: RouteInput<R>, context = PAGE): Promise<RouteOutput<R>> =>
    router.call(def, input, context)
  /** A route called with input as the table holds it (unchecked); an error is thrown as an AppError. */
  const callUnchecked = async (def: RouteDef, input: unknown, context = PAGE): Promise<unknown> => {
    const result = await router.invoke(def.name, input, context)
    if (!result.ok) throw new AppError(result.error.code, result.error.message, result.error.details)
    return result.data
  }
  const pick = async (path: string, context = PAGE): Promise<string> => {
    const { token } = await call(appChooseFolder, { path }, context)
    if (token === null) throw new Error(`the picker refused ${path}`)
    return token
  }
  return { presenters, call, callUnchecked, pick, dataDir }
}

/** Every route that takes a folder, with the folder in its place. */
const folderRoutes = (folder: string, sessionId: string): Array<[RouteDef, unknown]> => [
  [sessionsCreate, { session: { workspaceDir: folder } }],
  [chatSendMessage, { text: 'hi', newSession: { workspaceDir: folder } }],
  [sessionsUpdateSettings, { sessionId, patch: { workspaceDir: folder } }],
  [configUpdateSettings, { patch: { defaultWorkspaceDir: folder } }],
  [configUpdateSettings, { patch: { backupFolder: folder } }],
  [skillsAddFromFolder, { folder }],
  [skillsList, { workspaceDir: folder }]
]

function skillFolder(): string {
  const folder = join(tempDir(), 'notes-skill')
  mkdirSync(folder)
  writeFileSync(
    join(folder, 'SKILL.md'),
    '---\nname: notes-skill\ndescription: Takes notes\n---\nWrite notes.\n'
  )
  return folder
}

describe('only folders the user picked reach the routes that take one', () => {
  it('refuses a typed folder on every such route and changes nothing', async () => {
    const { presenters, call, callUnchecked } = start()
    const scratchChat = presenters.sessions.create({ title: 'scratch' })
    const typed = skillFolder()
    const before = presenters.sessions.list({ limit: 50 }).sessions.length
    for (const [route, input] of folderRoutes(typed, scratchChat.id)) {
      await expect(callUnchecked(route, input), route.name).rejects.toMatchObject({ code: 'path_not_picked' })
    }
    expect(presenters.sessions.list({ limit: 50 }).sessions).toHaveLength(before)
    expect(presenters.sessions.require(scratchChat.id).workspaceIsScratch).toBe(true)
    expect(presenters.config.getSettings()).toMatchObject({ defaultWorkspaceDir: '', backupFolder: '' })
    expect((await call(skillsList, { workspaceDir: null })).skills.map((s) => s.name)).not.toContain(
      'notes-skill'
    )
  })

  it('takes the picker token once, on each route, for the folder that was picked', async () => {
    const { presenters, call, callUnchecked, pick } = start()
    const chat = presenters.sessions.create({ title: 'scratch' })
    const folder = tempDir()
    const created = await call(sessionsCreate, { session: { workspaceDir: await pick(folder) } })
    expect(created.session.workspaceDir).toBe(folder)
    const moved = await call(sessionsUpdateSettings, {
      sessionId: chat.id,
      patch: { workspaceDir: await pick(folder) }
    })
    expect(moved.settings.workspaceDir).toBe(folder)
    const backups = tempDir()
    await call(configUpdateSettings, { patch: { backupFolder: await pick(backups) } })
    expect(presenters.config.getSettings().backupFolder).toBe(backups)
    const skill = await call(skillsAddFromFolder, { folder: await pick(skillFolder()) })
    expect(skill.skill.name).toBe('notes-skill')

    // Spent: the same token again is refused on any route.
    const token = await pick(folder)
    await call(configUpdateSettings, { patch: { defaultWorkspaceDir: token } })
    expect(presenters.config.getSettings().defaultWorkspaceDir).toBe(folder)
    for (const [route, input] of folderRoutes(token, chat.id).filter(([r]) => r !== skillsList)) {
      await expect(callUnchecked(route, input), route.name).rejects.toMatchObject({ code: 'pick_expired' })
    }
    // A token-shaped string nobody issued is no better than a typed path.
    const forged = `picked:${'A'.repeat(32)}`
    await expect(call(skillsAddFromFolder, { folder: forged })).rejects.toMatchObject({
      code: 'pick_expired'
    })
  })

  it("refuses another connection's token, which stays usable by the page that picked", async () => {
    const { presenters, call, pick } = start()
    const folder = tempDir()
    const token = await pick(folder, PAGE)
    await expect(
      call(sessionsCreate, { session: { workspaceDir: token } }, OTHER_PAGE)
    ).rejects.toMatchObject({ code: 'pick_expired' })
    const { session } = await call(sessionsCreate, { session: { workspaceDir: token } }, PAGE)
    expect(presenters.sessions.require(session.id).workspaceDir).toBe(folder)
  })

  it('refuses a token whose folder was swapped for a link or another folder after the pick', async () => {
    const { call, pick } = start()
    const root = tempDir()
    const picked = join(root, 'project')
    const elsewhere = tempDir()
    mkdirSync(picked)
    const toLink = await pick(picked)
    const toNewFolder = await pick(picked)
    renameSync(picked, join(root, 'moved'))
    symlinkSync(elsewhere, picked)
    await expect(call(sessionsCreate, { session: { workspaceDir: toLink } })).rejects.toMatchObject({
      code: 'path_changed'
    })
    // The same name, a different folder.
    rmSync(picked)
    mkdirSync(picked)
    await expect(call(skillsAddFromFolder, { folder: toNewFolder })).rejects.toMatchObject({
      code: 'path_changed'
    })
  })

  it('binds a pick to the real folder: `..` and links are resolved by the picker, not by the route', async () => {
    const { presenters, call, pick } = start()
    const root = tempDir()
    const real = join(root, 'real')
    mkdirSync(join(real, 'sub'), { recursive: true })
    symlinkSync(real, join(root, 'link'))
    const { session } = await call(sessionsCreate, {
      session: { workspaceDir: await pick(join(root, 'link', 'sub', '..')) }
    })
    expect(session.workspaceDir).toBe(real)
    // Known now, as written: the same folder with `..` folded is known; a link to it or a path
    // that climbs out of it is not.
    const again = await call(sessionsCreate, { session: { workspaceDir: join(real, 'sub', '..') } })
    expect(again.session.workspaceDir).toBe(real)
    for (const typed of [
      join(root, 'link'),
      join(real, '..'),
      join(real, '..', '..', 'etc'),
      `${real}/../real2`
    ]) {
      await expect(call(sessionsCreate, { session: { workspaceDir: typed } }), typed).rejects.toMatchObject({
        code: 'path_not_picked'
      })
    }
    expect(presenters.sessions.list({ limit: 50 }).sessions.map((s) => s.workspaceDir)).toEqual([real, real])
  })

  it('the picker itself refuses what is not an existing folder', async () => {
    const { pick } = start()
    const file = join(tempDir(), 'file.txt')
    writeFileSync(file, 'x')
    for (const bad of ['relative/dir', join(tempDir(), 'missing'), file, '/tmp/a\0b', '   ']) {
      await expect(pick(bad), JSON.stringify(bad)).rejects.toMatchObject({
        code: expect.stringMatching(/^(invalid_folder|invalid_input)$/)
      })
    }
  })

  it('accepts a folder main already holds: the default workspace and a chat’s workspace', async () => {
    const { presenters, call, pick } = start()
    const folder = tempDir()
    await call(configUpdateSettings, { patch: { defaultWorkspaceDir: await pick(folder) } })
    // Known as the default workspace before any chat works there.
    const fromDefault = await call(sessionsCreate, { session: { workspaceDir: folder } })
    expect(fromDefault.session.workspaceDir).toBe(folder)
    const { session } = await call(sessionsCreate, { session: { workspaceDir: `${folder}/` } })
    expect(session.workspaceDir).toBe(folder)
    // And as a chat's workspace once the default moved on.
    await call(configUpdateSettings, { patch: { defaultWorkspaceDir: '' } })
    const again = await call(chatSendMessage, { text: 'hi', newSession: { workspaceDir: folder } }).catch(
      (error: { code?: string }) => error
    )
    expect((again as { code?: string }).code).not.toBe('path_not_picked')
    const listed = await call(skillsList, { workspaceDir: folder })
    expect(listed.skills).toBeInstanceOf(Array)
    expect(presenters.pathGrants.isKnown(folder)).toBe(true)
  })

  it('in the desktop app a typed folder is confirmed in the folder dialog, and only its answer is picked', async () => {
    const chosen = tempDir()
    const asked: unknown[] = []
    const answers: Array<string | null> = [chosen, null]
    const { call } = start({
      pickFolder: async (options) => {
        asked.push(options)
        return answers.shift() ?? null
      }
    })
    const picked = await call(appChooseFolder, { path: '/etc', title: 'Workspace' })
    expect(picked).toEqual({ path: chosen, token: expect.stringMatching(/^picked:/) })
    expect(asked).toEqual([{ title: 'Workspace', defaultPath: '/etc' }])
    expect(await call(appChooseFolder, { path: '/etc' })).toEqual({ path: null, token: null })
    const { session } = await call(sessionsCreate, { session: { workspaceDir: picked.token } })
    expect(session.workspaceDir).toBe(chosen)
  })

  it('restores and downloads only a backup the list shows: not a copy elsewhere, not a link planted in the folder', async () => {
    const { presenters, call } = start()
    const made = presenters.data.backup({ includeSecrets: false })
    const outside = join(tempDir(), 'deepchat-backup-copy.tar.gz')
    copyFileSync(made.path, outside)
    const planted = join(presenters.data.listBackups().folder, 'deepchat-backup-planted.tar.gz')
    symlinkSync(outside, planted)
    for (const path of [outside, planted, `${made.path}/../../deepchat.db`]) {
      await expect(call(dataRestoreBackup, { path }), path).rejects.toMatchObject({ code: 'not_found' })
      await expect(call(dataDownloadBackup, { path }), path).rejects.toMatchObject({ code: 'not_found' })
    }
    const staged = await call(dataRestoreBackup, { path: made.path })
    expect(staged.manifest.includesSecrets).toBe(false)
  })
})

describe('PathGrants', () => {
  it('a pick expires after its time, and unredeemed picks are capped', () => {
    let now = 1_000
    const grants = new PathGrants({ knownFolders: () => [], now: () => now, ttlMs: 60_000 })
    const folder = tempDir()
    const late = grants.issue(folder, 'c').token
    const inTime = grants.issue(folder, 'c').token
    now += 30_000
    expect(grants.redeem(inTime, 'c')).toBe(folder)
    now += 30_001
    expect(() => grants.redeem(late, 'c')).toThrow(/expired/)
    const tokens = Array.from({ length: 70 }, () => grants.issue(folder, 'c').token)
    expect(() => grants.redeem(tokens[0], 'c')).toThrow(/expired/)
    expect(grants.redeem(tokens[69], 'c')).toBe(folder)
  })
})
