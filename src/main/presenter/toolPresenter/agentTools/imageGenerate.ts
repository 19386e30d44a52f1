import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { z } from 'zod'
import description from './descriptions/image_generate.md?raw'
import { IMAGE_SERVER, ToolError, defineAgentTool, type AgentToolResult } from './defineTool'

export const IMAGE_PROMPT_MAX = 8000
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif'
}

const Size = z
  .string()
  .regex(/^\d{3,4}x\d{3,4}$/, 'size is WIDTHxHEIGHT, e.g. 1024x1024')
  .refine(
    (s) =>
      s
        .split('x')
        .map(Number)
        .every((n) => n >= 256 && n <= 4096),
    'each side is 256..4096 pixels'
  )

const input = z.strictObject({
  prompt: z.string().trim().min(1).max(IMAGE_PROMPT_MAX).describe('What to draw, in detail'),
  size: Size.optional().describe('WIDTHxHEIGHT, e.g. 1024x1024, 1536x1024, 1024x1536'),
  quality: z.enum(['low', 'medium', 'high', 'auto']).optional(),
  outputFormat: z.enum(['png', 'jpeg', 'webp']).optional(),
  background: z.enum(['auto', 'opaque']).optional()
})

/** Draws with the session's image model; each image is saved in the session folder and shown. */
export const imageGenerateTool = defineAgentTool({
  name: 'image_generate',
  group: IMAGE_SERVER,
  labelKey: 'settingsAgentTools.labels.image_generate',
  readOnly: false,
  parallelSafe: false,
  description,
  input,
  available: ({ runtime, sessionId }) => !!runtime.generateImage && !!runtime.imageModelFor?.(sessionId),
  checkPermission: () => null,
  async execute(args, ctx): Promise<AgentToolResult> {
    const model = ctx.runtime.imageModelFor?.(ctx.sessionId)
    if (!model || !ctx.runtime.generateImage)
      throw new ToolError('image_model_unavailable', 'No image generation model is configured.')
    let images
    try {
      images = await ctx.runtime.generateImage(ctx.sessionId, args, ctx.signal)
    } catch (error) {
      const code = (error as { code?: unknown }).code
      throw new ToolError(
        typeof code === 'string' ? code : 'image_generation_failed',
        error instanceof Error ? error.message : String(error)
      )
    }
    if (images.length === 0)
      throw new ToolError(
        'image_generation_failed',
        'The model returned no image (it may have refused the prompt).'
      )
    const folder = join(ctx.sessionDataDir, 'images')
    await mkdir(folder, { recursive: true })
    const saved: { path: string; mimeType: string; bytes: number }[] = []
    for (const [index, image] of images.entries()) {
      const bytes = Buffer.from(image.base64, 'base64')
      const path = join(
        folder,
        `${ctx.toolCallId.replace(/[^A-Za-z0-9_-]/g, '_')}-${index + 1}.${EXTENSIONS[image.mimeType] ?? 'png'}`
      )
      await writeFile(path, bytes)
      saved.push({ path, mimeType: image.mimeType, bytes: bytes.length })
    }
    const data = {
      ok: true,
      prompt: args.prompt,
      model: `${model.providerId}/${model.modelId}`,
      imageCount: saved.length,
      images: saved
    }
    return {
      ok: true,
      summary: `Generated ${saved.length} image(s) with ${data.model}`,
      content: [
        { type: 'text', text: JSON.stringify(data, null, 2) },
        ...images.map((i) => ({ type: 'image' as const, data: i.base64, mimeType: i.mimeType }))
      ],
      data,
      // The images are the answer: the chat shows each one after the call, with its file.
      effects: {
        images: images.map((i, n) => ({ mimeType: i.mimeType, data: i.base64, path: saved[n].path }))
      }
    }
  }
})
