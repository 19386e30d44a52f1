import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  skillsAddFromFolder,
  skillsList,
  skillsRead,
  skillsSetEnabled
} from '@shared/contracts/routes/agentFeatures.routes'
import { appChooseFolder } from '@shared/contracts/routes/app.routes'
import { createRouter } from '../../../src/main/routes'
import { createFeatureHarness, type FeatureHarness } from '../tools/featureHarness'
import { useTempDirs } from '../helpers/tempDir'

const tempDir = useTempDirs()
let h: FeatureHarness
let router: ReturnType<typeof createRouter>
beforeEach(() => {
  h = createFeatureHarness()
  router = createRouter(h.presenters)
})
afterEach(async () => {
  await h.close()
})

const listedNames = async () =>
  (h.json<{ skills: { name: string }[] }>(await h.call('skill_list', {})).skills as { name: string }[]).map(
    (s) => s.name
  )

describe('Settings › Skills routes', () => {
  it('disabling a skill removes it from skill_list and skill_view; enabling brings it back', async () => {
    expect(await listedNames()).toContain('code-review')
    const { disabled } = await router.call(skillsSetEnabled, { name: 'code-review', enabled: false })
    expect(disabled).toEqual(['code-review'])
    expect(await listedNames()).not.toContain('code-review')
    expect((await h.call('skill_view', { name: 'code-review' })).rawData.isError).toBe(true)
    // The page still lists it, marked off, and can read it.
    const page = await router.call(skillsList, { workspaceDir: null })
    expect(page.skills.map((s) => s.name)).toContain('code-review')
    expect(page.disabled).toEqual(['code-review'])
    expect((await router.call(skillsRead, { name: 'code-review' })).body.length).toBeGreaterThan(0)

    await router.call(skillsSetEnabled, { name: 'code-review', enabled: true })
    expect(await listedNames()).toContain('code-review')
  })

  it('adds a skill from a folder into the app skills folder, once', async () => {
    const folder = join(tempDir(), 'release-notes')
    mkdirSync(folder)
    writeFileSync(
      join(folder, 'SKILL.md'),
      '---\nname: release-notes\ndescription: Writes release notes\n---\nCollect the merged changes.\n'
    )
    // The page sends the picker's token for the folder, never the folder itself.
    const pick = async (path: string) => (await router.call(appChooseFolder, { path })).token!
    await expect(router.call(skillsAddFromFolder, { folder })).rejects.toMatchObject({
      code: 'path_not_picked'
    })
    const { skill } = await router.call(skillsAddFromFolder, { folder: await pick(folder) })
    expect(skill).toMatchObject({ name: 'release-notes', source: 'app', description: 'Writes release notes' })
    expect(readFileSync(join(skill.root, 'SKILL.md'), 'utf8')).toContain('Collect the merged changes.')
    expect(await listedNames()).toContain('release-notes')
    await expect(router.call(skillsAddFromFolder, { folder: await pick(folder) })).rejects.toMatchObject({
      code: 'conflict'
    })
    await expect(router.call(skillsAddFromFolder, { folder: await pick(tempDir()) })).rejects.toMatchObject({
      code: 'invalid_input'
    })
  })
})
