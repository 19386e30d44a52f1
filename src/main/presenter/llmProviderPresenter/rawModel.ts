/** A model as a provider's API describes it, before our known-model table fills the gaps. */
export interface RawModel {
  id: string
  name?: string
  contextLength?: number
  maxOutputTokens?: number
  /** Whether the API says the model takes images (Bedrock does). */
  vision?: boolean
}
