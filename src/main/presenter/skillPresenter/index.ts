import { cp, readdir, readFile, realpath, stat } from 'node:fs/promises'
import { basename, isAbsolute, join, relative, sep } from 'node:path'
import { z } from 'zod'
import fg from 'fast-glob'
import { AppError } from '@shared/errors'
import type { SessionToolState, SkillSummary, SkillView } from '../toolPresenter/runtimePorts'
import type { ConfigPresenter } from '../configPresenter'
import { allowedToolsOf, parseFrontMatter } from './frontMatter'

export const SKILL_FILE = 'SKILL.md'
export const SKILL_MD_MAX_BYTES = 5 * 1024 * 1024
export const SKILL_FILE_MAX_BYTES = 1024 * 1024
const LINKED_FILES_MAX = 200
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

export type SkillSource = SkillSummary['source']

export interface Skill {
  name: string
  description: string
  allowedTools: string[]
  source: SkillSource
  root: string
}

export interface SkillProblem {
  path: string
  message: string
}

export interface SkillPresenterDeps {
  /** Skills shipped with the app (`resources/skills`). */
  builtinDir: string
  /** The user's skills folder (`<userData>/skills`). */
  appDir: string
  /** A session's workspace folder; its `.deepchat/skills/` holds project skills. */
  workspaceOf: (sessionId: string) => string | null
  state: {
    get(sessionId: string): SessionToolState
    update(sessionId: string, patch: Partial<SessionToolState>): SessionToolState
  }
  /** Where the names of skills the user switched off are kept (Settings › Skills). */
  config?: Pick<ConfigPresenter, 'getDocument' | 'setDocument'>
}

const DISABLED_KEY = 'skills.disabled'
const DisabledSkills = z.object({ names: z.array(z.string().max(64)).max(1000) })

/**
 * Skills are folders with a SKILL.md. Later sources win on a name clash: built-in, then the
 * app folder, then the workspace. Folders are read on every call, so edits show up at once.
 */
export class SkillPresenter {
  constructor(private readonly deps: SkillPresenterDeps) {}

  async discover(workspaceDir: string | null): Promise<{ skills: Skill[]; problems: SkillProblem[] }> {
    const roots: [SkillSource, string][] = [
      ['builtin', this.deps.builtinDir],
      ['app', this.deps.appDir]
    ]
    if (workspaceDir) roots.push(['workspace', join(workspaceDir, '.deepchat', 'skills')])
    const byName = new Map<string, Skill>()
    const problems: SkillProblem[] = []
    for (const [source, dir] of roots) {
      for (const folder of await subfolders(dir)) {
        try {
          const skill = await loadSkill(join(dir, folder), folder, source)
          if (skill) byName.set(skill.name, skill)
        } catch (error) {
          problems.push({
            path: join(dir, folder, SKILL_FILE),
            message: error instanceof Error ? error.message : String(error)
          })
        }
      }
    }
    return { skills: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), problems }
  }

  /** Names the user switched off: chats neither list nor load them. */
  disabledNames(): string[] {
    return this.deps.config?.getDocument(DISABLED_KEY, DisabledSkills, { names: [] }).names ?? []
  }

  setEnabled(name: string, enabled: boolean): string[] {
    if (!this.deps.config) throw new AppError('unavailable', 'Skills cannot be switched off here')
    const others = this.disabledNames().filter((n) => n !== name)
    const names = enabled ? others : [...others, name]
    return this.deps.config.setDocument(DISABLED_KEY, DisabledSkills, { names }).names
  }

  /** Copies a skill folder (with its SKILL.md) into the app's skills folder. */
  async addFromFolder(folder: string): Promise<Skill> {
    if (!isAbsolute(folder)) throw new AppError('invalid_input', 'Give the absolute path of a skill folder')
    const name = basename(folder)
    const skill = await loadSkill(folder, name, 'app').catch((error: unknown) => {
      throw new AppError('invalid_input', error instanceof Error ? error.message : String(error))
    })
    if (!skill) throw new AppError('invalid_input', `${folder} has no ${SKILL_FILE}`)
    const target = join(this.deps.appDir, name)
    if (await stat(target).catch(() => null))
      throw new AppError('conflict', `A skill folder named "${name}" already exists`)
    await cp(folder, target, { recursive: true, dereference: false })
    return { ...skill, root: target }
  }

  /** A skill's SKILL.md text (for the Skills page), enabled or not. */
  async read(name: string): Promise<string> {
    const skill = (await this.discover(null)).skills.find((s) => s.name === name)
    if (!skill) throw new AppError('skill_not_found', `No skill named "${name}"`)
    return parseFrontMatter(await readCapped(join(skill.root, SKILL_FILE), SKILL_MD_MAX_BYTES)).body
  }

  /** The skills a session sees: discovered, minus the ones switched off. */
  private async enabledFor(sessionId: string): Promise<Skill[]> {
    const off = new Set(this.disabledNames())
    const { skills } = await this.discover(this.deps.workspaceOf(sessionId))
    return skills.filter((s) => !off.has(s.name))
  }

  async list(sessionId: string): Promise<SkillSummary[]> {
    const skills = await this.enabledFor(sessionId)
    const active = new Set(this.activeSkills(sessionId))
    return skills.map((s) => ({
      name: s.name,
      description: s.description,
      allowedTools: s.allowedTools,
      source: s.source,
      active: active.has(s.name)
    }))
  }

  activeSkills(sessionId: string): string[] {
    return this.deps.state.get(sessionId).activeSkills
  }

  /** Tools the session's active skills allow (what skill-gated tools check). */
  async allowedToolsFor(sessionId: string): Promise<Set<string>> {
    const active = new Set(this.activeSkills(sessionId))
    if (active.size === 0) return new Set()
    const skills = await this.enabledFor(sessionId)
    return new Set(skills.filter((s) => active.has(s.name)).flatMap((s) => s.allowedTools))
  }

  activate(sessionId: string, name: string): boolean {
    const active = this.activeSkills(sessionId)
    if (active.includes(name)) return false
    this.deps.state.update(sessionId, { activeSkills: [...active, name] })
    return true
  }

  deactivate(sessionId: string, name: string): boolean {
    const active = this.activeSkills(sessionId)
    if (!active.includes(name)) return false
    this.deps.state.update(sessionId, { activeSkills: active.filter((n) => n !== name) })
    return true
  }

  async find(sessionId: string, name: string): Promise<Skill> {
    const skills = await this.enabledFor(sessionId)
    const skill = skills.find((s) => s.name === name)
    if (!skill) {
      const known = skills.map((s) => s.name).join(', ') || 'none'
      throw new AppError('skill_not_found', `No skill named "${name}". Available: ${known}.`)
    }
    return skill
  }

  /** SKILL.md without its front matter (with `${SKILL_ROOT}` filled in), or one file of the skill. */
  async view(sessionId: string, name: string, filePath?: string): Promise<SkillView> {
    const skill = await this.find(sessionId, name)
    const linkedFiles = await listLinkedFiles(skill.root)
    if (!filePath) {
      const text = await readCapped(join(skill.root, SKILL_FILE), SKILL_MD_MAX_BYTES)
      const body = parseFrontMatter(text).body.replaceAll('${SKILL_ROOT}', skill.root)
      return {
        name: skill.name,
        root: skill.root,
        content: body,
        filePath: null,
        linkedFiles,
        allowedTools: skill.allowedTools
      }
    }
    const target = await resolveInside(skill.root, filePath)
    const content = await readCapped(target, SKILL_FILE_MAX_BYTES)
    if (content.includes('\u0000')) throw new AppError('binary_file', `${filePath} is a binary file`)
    return {
      name: skill.name,
      root: skill.root,
      content,
      filePath: relative(skill.root, target).split(sep).join('/'),
      linkedFiles,
      allowedTools: skill.allowedTools
    }
  }
}

async function subfolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true })
    return entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name)
  } catch {
    return [] // a missing skills folder just means no skills there
  }
}

async function loadSkill(root: string, folder: string, source: SkillSource): Promise<Skill | null> {
  let text: string
  try {
    text = await readCapped(join(root, SKILL_FILE), SKILL_MD_MAX_BYTES)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
  const { fields } = parseFrontMatter(text)
  const name = typeof fields.name === 'string' && fields.name ? fields.name : folder
  if (!NAME.test(name))
    throw new Error(`skill name "${name}" may use letters, digits, ".", "_" and "-" (at most 64)`)
  const description = typeof fields.description === 'string' ? fields.description.trim() : ''
  if (!description) throw new Error('SKILL.md front matter needs a description')
  if (description.length > 1024) throw new Error('the description is longer than 1024 characters')
  return {
    name,
    description,
    allowedTools: allowedToolsOf(fields['allowed-tools'] ?? fields.allowedTools ?? fields.allowed_tools),
    source,
    root
  }
}

async function readCapped(path: string, maxBytes: number): Promise<string> {
  const info = await stat(path)
  if (!info.isFile()) throw new AppError('not_a_file', `${path} is not a file`)
  if (info.size > maxBytes)
    throw new AppError('file_too_large', `${path} is ${info.size} bytes; the limit is ${maxBytes}`)
  return readFile(path, 'utf8')
}

/** A file of the skill, never outside its folder (no `..`, no symlink escapes). */
async function resolveInside(root: string, filePath: string): Promise<string> {
  if (isAbsolute(filePath))
    throw new AppError('outside_skill', 'file_path must be relative to the skill folder')
  const realRoot = await realpath(root)
  let target: string
  try {
    target = await realpath(join(root, filePath))
  } catch {
    throw new AppError('not_found', `The skill has no file ${filePath}`)
  }
  const rel = relative(realRoot, target)
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
    throw new AppError('outside_skill', `${filePath} is outside the skill folder`)
  return target
}

async function listLinkedFiles(root: string): Promise<string[]> {
  const files = await fg('**/*', {
    cwd: root,
    onlyFiles: true,
    dot: false,
    followSymbolicLinks: false,
    ignore: [SKILL_FILE]
  })
  return files.sort().slice(0, LINKED_FILES_MAX)
}
