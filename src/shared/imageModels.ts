/**
 * Model ids that make images, by the names their vendors give them: OpenAI's gpt-image and
 * DALL·E, Google's Imagen and Gemini "…-image…" models, and the open families OpenAI-compatible
 * gateways serve (FLUX, Stable Diffusion, Kolors, CogView, Seedream, Qwen-Image…). An allowlist
 * of names: an unknown model is not offered as an image model unless the user asks for all.
 */
const IMAGE_MODEL =
  /(^|[/:_.-])(gpt-image|chatgpt-image|dall-e|imagen|flux|stable-diffusion|sdxl|sd3|kolors|cogview|seedream|qwen-image|hidream|recraft|ideogram|playground-v|wanx|wan2\.\d-t2i|kandinsky|hunyuan-?image)|-image(-|$)|image-generation|image-preview/i

export function isImageModelId(modelId: string): boolean {
  return IMAGE_MODEL.test(modelId)
}
