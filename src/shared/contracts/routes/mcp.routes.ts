import { z } from 'zod'
import { defineRoute } from '../define'
import {
  McpCallResultView,
  McpCompletionRequest,
  McpCompletionResult,
  McpElicitationAnswer,
  McpOAuthState,
  McpPromptResult,
  McpPromptView,
  McpResourceContents,
  McpResourceTemplateView,
  McpResourceView,
  McpSamplingDecision,
  McpServerInput,
  McpServerPatch,
  McpServerView,
  McpToolView
} from '../../types/mcp'

const serverId = z.string().min(1).max(64)
const byId = z.object({ serverId }).strict()
const serverOut = z.object({ server: McpServerView })

export const mcpList = defineRoute({
  name: 'mcp.list',
  input: z.object({}).strict(),
  output: z.object({ servers: z.array(McpServerView) })
})

export const mcpAdd = defineRoute({
  name: 'mcp.add',
  input: z.object({ server: McpServerInput }).strict(),
  output: serverOut
})

export const mcpUpdate = defineRoute({
  name: 'mcp.update',
  input: z.object({ serverId, patch: McpServerPatch }).strict(),
  output: serverOut
})

export const mcpRemove = defineRoute({
  name: 'mcp.remove',
  input: byId,
  output: z.object({ removed: z.literal(true) })
})

export const mcpSetEnabled = defineRoute({
  name: 'mcp.setEnabled',
  input: z.object({ serverId, enabled: z.boolean() }).strict(),
  output: serverOut
})

export const mcpStart = defineRoute({ name: 'mcp.start', input: byId, output: serverOut })
export const mcpStop = defineRoute({ name: 'mcp.stop', input: byId, output: serverOut })
export const mcpRestart = defineRoute({ name: 'mcp.restart', input: byId, output: serverOut })

export const mcpListTools = defineRoute({
  name: 'mcp.listTools',
  input: z.object({ serverId: serverId.optional() }).strict(),
  output: z.object({ tools: z.array(McpToolView) })
})

/**
 * The settings test panel's call; it needs the same approval as a call from the chat.
 * `allowOnce`: the user has just approved this one call on its approval card (a deny rule
 * still wins; nothing is remembered).
 */
export const mcpCallTool = defineRoute({
  name: 'mcp.callTool',
  input: z
    .object({
      serverId,
      toolName: z.string().min(1),
      args: z.record(z.string(), z.unknown()).default({}),
      allowOnce: z.literal(true).optional()
    })
    .strict(),
  output: z.object({ result: McpCallResultView })
})

/** Words matched against name, title, description (and uri): the composer's `/` and `@` search. */
const query = z.string().trim().max(200).optional()

/** Prompts of running servers (all of them without serverId), optionally searched. */
export const mcpListPrompts = defineRoute({
  name: 'mcp.listPrompts',
  input: z.object({ serverId: serverId.optional(), query }).strict(),
  output: z.object({ prompts: z.array(McpPromptView) })
})

export const mcpGetPrompt = defineRoute({
  name: 'mcp.getPrompt',
  input: z
    .object({ serverId, name: z.string().min(1), args: z.record(z.string(), z.string()).default({}) })
    .strict(),
  output: z.object({ prompt: McpPromptResult })
})

/** Resources and resource templates of running servers, optionally searched. */
export const mcpListResources = defineRoute({
  name: 'mcp.listResources',
  input: z.object({ serverId: serverId.optional(), query }).strict(),
  output: z.object({ resources: z.array(McpResourceView), templates: z.array(McpResourceTemplateView) })
})

export const mcpReadResource = defineRoute({
  name: 'mcp.readResource',
  input: z.object({ serverId, uri: z.string().min(1).max(4_000) }).strict(),
  output: z.object({ contents: z.array(McpResourceContents) })
})

/** Suggestions for a prompt argument or a resource template variable (`completion/complete`). */
export const mcpComplete = defineRoute({
  name: 'mcp.complete',
  input: McpCompletionRequest.strict(),
  output: z.object({ completion: McpCompletionResult })
})

export const mcpImportJson = defineRoute({
  name: 'mcp.importJson',
  input: z.object({ json: z.string().max(1_000_000) }).strict(),
  output: z.object({
    imported: z.array(McpServerView),
    skipped: z.array(z.object({ name: z.string(), reason: z.string() }))
  })
})

export const mcpExportJson = defineRoute({
  name: 'mcp.exportJson',
  input: z.object({ includeSecrets: z.boolean().default(false) }).strict(),
  output: z.object({ json: z.string() })
})

export const mcpAnswerElicitation = defineRoute({
  name: 'mcp.answerElicitation',
  input: z.object({ requestId: z.string().min(1), answer: McpElicitationAnswer }).strict(),
  output: z.object({ answered: z.literal(true) })
})

export const mcpAnswerSampling = defineRoute({
  name: 'mcp.answerSampling',
  input: z.object({ requestId: z.string().min(1), decision: McpSamplingDecision }).strict(),
  output: z.object({ answered: z.literal(true) })
})

/** OAuth sign-in state of a server. Signing in happens when it connects (mcp.start / mcp.restart). */
export const mcpOAuthState = defineRoute({
  name: 'mcp.oauthState',
  input: byId,
  output: z.object({ oauth: McpOAuthState })
})

/** Forgets the stored OAuth client and tokens and stops the server; starting it signs in again. */
export const mcpOAuthSignOut = defineRoute({
  name: 'mcp.oauthSignOut',
  input: byId,
  output: z.object({ server: McpServerView, oauth: McpOAuthState })
})
