import type { AttachmentView } from '@shared/types/attachments'
import type { McpPromptResult } from '@shared/types/mcp'

export interface McpPromptDeps {
  getPrompt(serverId: string, name: string, args: Record<string, string>): Promise<McpPromptResult>
  addBytes(name: string, mimeType: string, bytes: Buffer): Promise<AttachmentView>
  fromMcpResource(serverId: string, uri: string, name?: string): Promise<AttachmentView[]>
}

/**
 * An MCP prompt used as a `/` command: its text messages become the composer's text (an
 * assistant turn of the prompt is labelled as such); images, embedded resources and resource
 * links become the message's attachments. Audio has no place in a message and is named instead.
 */
export async function expandMcpPrompt(
  deps: McpPromptDeps,
  input: { serverId: string; name: string; args: Record<string, string> }
): Promise<{ text: string; attachments: AttachmentView[] }> {
  const prompt = await deps.getPrompt(input.serverId, input.name, input.args)
  const texts: string[] = []
  const attachments: AttachmentView[] = []
  for (const message of prompt.messages) {
    const content = message.content
    const label = message.role === 'assistant' ? 'Assistant: ' : ''
    switch (content.type) {
      case 'text':
        texts.push(`${label}${content.text}`)
        break
      case 'image':
        attachments.push(
          await deps.addBytes(
            `${input.name}-${attachments.length + 1}.${content.mimeType.split('/')[1] ?? 'png'}`,
            content.mimeType,
            Buffer.from(content.data, 'base64')
          )
        )
        break
      case 'resource': {
        const { resource } = content
        const bytes =
          resource.blob !== undefined
            ? Buffer.from(resource.blob, 'base64')
            : Buffer.from(resource.text ?? '', 'utf8')
        attachments.push(await deps.addBytes(fileName(resource.uri), resource.mimeType ?? '', bytes))
        break
      }
      case 'resource_link':
        attachments.push(...(await deps.fromMcpResource(input.serverId, content.uri, content.name)))
        break
      case 'audio':
        texts.push(`[The prompt included audio (${content.mimeType}), which cannot be attached.]`)
        break
    }
  }
  return { text: texts.join('\n\n'), attachments }
}

function fileName(uri: string): string {
  const path = uri.replace(/[?#].*$/, '').replace(/\/+$/, '')
  return path.slice(path.lastIndexOf('/') + 1) || 'resource'
}
