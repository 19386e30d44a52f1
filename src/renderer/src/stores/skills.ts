import { defineStore } from 'pinia'
import { ref } from 'vue'
import {
  skillsAddFromFolder,
  skillsList,
  skillsRead,
  skillsSetEnabled
} from '@shared/contracts/routes/agentFeatures.routes'
import type { RouteOutput } from '@shared/contracts/define'
import { useBridge } from '@renderer/api/bridge'

export type SkillListing = RouteOutput<typeof skillsList>

/** The skills chats can load (built-in and app skills), which are switched off, and folders that failed. */
export const useSkillsStore = defineStore('skills', () => {
  const listing = ref<SkillListing>({ skills: [], problems: [], disabled: [] })

  async function load(): Promise<void> {
    listing.value = await useBridge().call(skillsList, { workspaceDir: null })
  }

  async function setEnabled(name: string, enabled: boolean): Promise<void> {
    const { disabled } = await useBridge().call(skillsSetEnabled, { name, enabled })
    listing.value = { ...listing.value, disabled }
  }

  /** A skill's SKILL.md body. */
  async function read(name: string): Promise<string> {
    return (await useBridge().call(skillsRead, { name })).body
  }

  /** Copies the skill in `folder` into the app's skills. */
  function addFromFolder(folder: string) {
    return useBridge().call(skillsAddFromFolder, { folder })
  }

  return { listing, load, setEnabled, read, addFromFolder }
})
