import { AppError } from '@shared/errors'
import {
  imageGenerationGetModel,
  imageGenerationSetModel,
  memoryForget,
  memorySearch,
  memoryUpdate,
  memoryList,
  memorySetEnabled,
  skillsAddFromFolder,
  skillsList,
  skillsRead,
  skillsSetEnabled
} from '@shared/contracts/routes/agentFeatures.routes'
import type { Router } from '../bridge/router'
import type { Presenters } from '../presenter'
import { IMAGE_GENERATION_KEY, ImageGenerationSetting } from '../presenter/agentRuntimePresenter/featurePorts'

export function registerAgentFeatureRoutes(
  router: Router,
  {
    memory,
    skills,
    config,
    llmProviders,
    pathGrants
  }: Pick<Presenters, 'memory' | 'skills' | 'config' | 'llmProviders' | 'pathGrants'>
): void {
  router.handle(memoryList, ({ agentId, limit }) => ({
    memories: memory.list(agentId, limit),
    settings: memory.settings()
  }))
  router.handle(memoryUpdate, ({ agentId, memoryId, content }) => ({
    memory: memory.update(agentId, memoryId, content)
  }))
  router.handle(memorySearch, ({ agentId, query }) => ({ memories: memory.recall(agentId, query, 50) }))
  router.handle(memoryForget, ({ agentId, memoryId }) => ({ removed: memory.forget(agentId, memoryId) }))
  router.handle(memorySetEnabled, ({ enabled, agentId }) => ({
    settings: memory.setEnabled(enabled, agentId)
  }))
  router.handle(skillsList, async ({ workspaceDir }, { clientId }) => ({
    ...(await skills.discover(workspaceDir ? pathGrants.folderFrom(workspaceDir, clientId) : null)),
    disabled: skills.disabledNames()
  }))
  router.handle(skillsSetEnabled, ({ name, enabled }) => ({ disabled: skills.setEnabled(name, enabled) }))
  // Copied skills are loaded into chats: only a folder picked just now, never one merely named.
  router.handle(skillsAddFromFolder, async ({ folder }, { clientId }) => ({
    skill: await skills.addFromFolder(pathGrants.folderFrom(folder, clientId, { known: false }))
  }))
  router.handle(skillsRead, async ({ name }) => ({ body: await skills.read(name) }))
  router.handle(imageGenerationGetModel, () =>
    config.getDocument(IMAGE_GENERATION_KEY, ImageGenerationSetting, { model: null })
  )
  router.handle(imageGenerationSetModel, async ({ model }) => {
    if (model) {
      const provider = (await llmProviders.listProviders()).find((p) => p.id === model.providerId)
      if (!provider) throw new AppError('not_found', `No provider "${model.providerId}"`)
      if (provider.kind !== 'openai' && provider.kind !== 'openai-compatible' && provider.kind !== 'gemini') {
        throw new AppError(
          'invalid_input',
          `${provider.name} (${provider.kind}) cannot generate images; pick an OpenAI or Gemini provider`
        )
      }
    }
    return config.setDocument(IMAGE_GENERATION_KEY, ImageGenerationSetting, { model })
  })
}
