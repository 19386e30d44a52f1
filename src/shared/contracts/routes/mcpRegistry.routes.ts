import { z } from 'zod'
import { defineRoute } from '../define'
import { McpServerView } from '../../types/mcp'
import { McpRegistryPage, McpRegistryTarget } from '../../types/mcpRegistry'

const RegistrySettingsView = z.object({
  url: z.string(),
  isOfficial: z.boolean(),
  /** Which runtimes are on the PATH servers start with: a package needing a missing one is not installable. */
  runtimes: z.object({ npx: z.boolean(), uvx: z.boolean(), docker: z.boolean() })
})

/** The registry browsed (the official one unless the user named another) and the runtimes found. */
export const mcpRegistryGetSettings = defineRoute({
  name: 'mcpRegistry.getSettings',
  input: z.object({}).strict(),
  output: z.object({ settings: RegistrySettingsView })
})

/** A blank URL returns to the official registry; another must be https. */
export const mcpRegistryUpdateSettings = defineRoute({
  name: 'mcpRegistry.updateSettings',
  input: z.object({ url: z.string().max(2048) }).strict(),
  output: z.object({ settings: RegistrySettingsView })
})

/** One page of servers (search by words, cursor from the previous page); cached pages when offline. */
export const mcpRegistryList = defineRoute({
  name: 'mcpRegistry.list',
  input: z
    .object({
      search: z.string().max(200).optional(),
      cursor: z.string().max(1_000).optional(),
      limit: z.number().int().min(1).max(100).optional()
    })
    .strict(),
  output: z.object({ page: McpRegistryPage })
})

/**
 * Installs a server main has shown (by name and version; main never takes its details from the
 * page) through one of its packages or remotes, with the form's values by input key.
 */
export const mcpRegistryInstall = defineRoute({
  name: 'mcpRegistry.install',
  input: z
    .object({
      name: z.string().min(3).max(200),
      version: z.string().min(1).max(128),
      target: McpRegistryTarget,
      values: z
        .record(z.string().max(200), z.string().max(4_000))
        .refine((values) => Object.keys(values).length <= 200, 'at most 200 values')
    })
    .strict(),
  output: z.object({ server: McpServerView })
})
