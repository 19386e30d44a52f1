import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFeatureHarness, type FeatureHarness } from '../tools/featureHarness'

/** What skill_list answers, as the assertions read it. */
interface SkillList {
  skills: Array<{ name: string }>
  activeCount: number
}
import { allowedToolsOf, parseFrontMatter } from '../../../src/main/presenter/skillPresenter/frontMatter'

let h: FeatureHarness
beforeEach(() => {
  h = createFeatureHarness()
})
afterEach(async () => {
  await h.close()
})

function writeSkill(dir: string, folder: string, frontMatter: string, body = '# Body\n') {
  mkdirSync(join(dir, folder), { recursive: true })
  writeFileSync(join(dir, folder, 'SKILL.md'), `---\n${frontMatter}\n---\n${body}`)
}

describe('skill discovery', () => {
  it('finds built-in, app-folder and workspace skills; the workspace wins a name clash; broken ones are reported', async () => {
    writeSkill(
      join(h.dataDir, 'skills'),
      'release',
      'name: release\ndescription: Cut a release\nallowed-tools:\n  - bash\n  - read_file'
    )
    writeSkill(
      join(h.workspace, '.deepchat', 'skills'),
      'review',
      'name: code-review\ndescription: "Project review rules"'
    )
    writeSkill(join(h.workspace, '.deepchat', 'skills'), 'broken', 'name: broken')
    const { skills, problems } = await h.presenters.skills.discover(h.workspace)
    const byName = Object.fromEntries(skills.map((s) => [s.name, s]))
    expect(byName['deepchat-settings'].source).toBe('builtin')
    expect(byName.release).toMatchObject({ source: 'app', allowedTools: ['exec', 'read'] })
    expect(byName['code-review']).toMatchObject({ source: 'workspace', description: 'Project review rules' })
    expect(problems).toHaveLength(1)
    expect(problems[0].message).toContain('description')
  })

  it('parses list styles and rejects front matter it cannot read', () => {
    expect(
      allowedToolsOf(
        parseFrontMatter('---\nallowed-tools: grep, glob_search\n---\nx').fields['allowed-tools']
      )
    ).toEqual(['grep', 'glob'])
    expect(() => parseFrontMatter('# no front matter')).toThrow(/front matter/)
    expect(() => parseFrontMatter('---\nname: x\n')).toThrow(/not closed/)
    expect(() => parseFrontMatter('---\njust words\n---\n')).toThrow(/key: value/)
  })
})

describe('skill tools', () => {
  it('skill_list lists skills with their active flag', async () => {
    const result = h.json<SkillList>(await h.call('skill_list', {}))
    const names = result.skills.map((s: { name: string }) => s.name)
    expect(names).toEqual(expect.arrayContaining(['code-review', 'deepchat-settings']))
    expect(result.activeCount).toBe(0)
  })

  it('skill_view returns the instructions, activates the skill and unlocks its tools for the session', async () => {
    const before = await h.toolNames()
    expect(before.some((n) => n.startsWith('deepchat_settings_'))).toBe(false)
    const view = await h.call('skill_view', { name: 'deepchat-settings' })
    expect(view.rawData.isError).toBe(false)
    expect(h.text(view)).toContain('# Chat settings')
    expect(h.text(view)).not.toContain('allowed-tools:')
    expect(view.rawData.toolResult.data).toMatchObject({ activated: true })
    expect(view.rawData.effects).toEqual({ toolsChanged: true })
    const after = await h.toolNames()
    expect(after).toContain('deepchat_settings_read')
    expect(after).toContain('deepchat_settings_set_model')
    // Another session is not affected, and a second view does not activate again.
    expect((await h.toolNames(h.newSession())).some((n) => n.startsWith('deepchat_settings_'))).toBe(false)
    const again = await h.call('skill_view', { name: 'deepchat-settings' })
    expect(again.rawData.toolResult.data).toMatchObject({ activated: false })
    expect(again.rawData.effects).toBeUndefined()
    expect(h.json<SkillList>(await h.call('skill_list', {})).activeCount).toBe(1)
  })

  it('skill_view reads a linked file with ${SKILL_ROOT} filled in the body', async () => {
    const root = h
      .json<SkillList>(await h.call('skill_list', {}))
      .skills.find((s: { name: string }) => s.name === 'code-review')
    expect(root).toBeTruthy()
    const view = await h.call('skill_view', { name: 'code-review' })
    expect(h.text(view)).toContain('checklist.md')
    expect(h.text(view)).not.toContain('${SKILL_ROOT}')
    const file = await h.call('skill_view', { name: 'code-review', file_path: 'checklist.md' })
    expect(h.text(file)).toContain('Review checklist')
  })

  it('errors: unknown skill, escaping paths, symlinks out, binary and oversized files', async () => {
    const skillsDir = join(h.workspace, '.deepchat', 'skills')
    writeSkill(skillsDir, 'local', 'description: Local skill')
    writeFileSync(join(h.workspace, 'secret.txt'), 'top secret')
    symlinkSync(join(h.workspace, 'secret.txt'), join(skillsDir, 'local', 'link.txt'))
    writeFileSync(join(skillsDir, 'local', 'blob.bin'), Buffer.from([1, 0, 2, 0]))
    writeFileSync(join(skillsDir, 'local', 'big.txt'), 'x'.repeat(1024 * 1024 + 1))

    const unknown = await h.call('skill_view', { name: 'nope' })
    expect(unknown.rawData.toolResult.error?.code).toBe('skill_not_found')
    expect(h.text(unknown)).toContain('deepchat-settings')
    for (const [file, code] of [
      ['../../../secret.txt', 'outside_skill'],
      ['link.txt', 'outside_skill'],
      ['/etc/passwd', 'outside_skill'],
      ['blob.bin', 'binary_file'],
      ['big.txt', 'file_too_large'],
      ['missing.md', 'not_found']
    ]) {
      const result = await h.call('skill_view', { name: 'local', file_path: file })
      expect(result.rawData.toolResult.error?.code, file).toBe(code)
      expect(h.text(result)).not.toContain('top secret')
    }
    // Viewing a file never activates the skill.
    expect(h.json<SkillList>(await h.call('skill_list', {})).activeCount).toBe(0)
  })
})
