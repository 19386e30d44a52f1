import { defineStore } from 'pinia'
import { ref } from 'vue'
import {
  imageGenerationGetModel,
  imageGenerationSetModel
} from '@shared/contracts/routes/agentFeatures.routes'
import type { RouteOutput } from '@shared/contracts/define'
import { useBridge } from '@renderer/api/bridge'

export type ImageModel = RouteOutput<typeof imageGenerationGetModel>['model']

/** The model `image_generate` uses; null: the tool is offered to no chat. */
export const useImageGenerationStore = defineStore('imageGeneration', () => {
  const model = ref<ImageModel>(null)

  async function load(): Promise<void> {
    model.value = (await useBridge().call(imageGenerationGetModel, {})).model
  }

  async function setModel(next: ImageModel): Promise<void> {
    model.value = (await useBridge().call(imageGenerationSetModel, { model: next })).model
  }

  return { model, load, setModel }
})
