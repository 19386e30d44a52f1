import { z } from 'zod'

/** The official MCP Registry; Settings › MCP › Browse registry may name a company's own instead. */
export const OFFICIAL_MCP_REGISTRY_URL = 'https://registry.modelcontextprotocol.io'

export const McpRegistrySettings = z
  .object({
    /** Base URL of a registry speaking the MCP Registry API (`/v0.1/servers`, or `/v0/servers`). */
    url: z.string().max(2048)
  })
  .strict()
export type McpRegistrySettings = z.infer<typeof McpRegistrySettings>

/** A value the user gives at install: an environment variable, an HTTP header or an argument. */
export const McpRegistryInput = z.object({
  /** `env:NAME`, `header:NAME` or `arg:<n>`: what the install form sends back. */
  key: z.string().max(200),
  kind: z.enum(['env', 'header', 'arg']),
  /** The variable or header name; for an argument its flag or hint. */
  name: z.string().max(200),
  description: z.string().max(1_000),
  isRequired: z.boolean(),
  isSecret: z.boolean(),
  default: z.string().max(1_000).optional(),
  placeholder: z.string().max(1_000).optional(),
  choices: z.array(z.string().max(200)).max(50).optional()
})
export type McpRegistryInput = z.infer<typeof McpRegistryInput>

/** One argument of a package's command line: a fixed value from the registry, or an input. */
export const McpRegistryArgument = z.object({
  /** `--flag` of a named argument; absent for a positional one. */
  flag: z.string().max(200).optional(),
  value: z.string().max(1_000).optional(),
  /** The input's key when the user gives the value. */
  inputKey: z.string().max(200).optional()
})
export type McpRegistryArgument = z.infer<typeof McpRegistryArgument>

export const McpRegistryPackageType = z.enum(['npm', 'pypi', 'oci'])
export type McpRegistryPackageType = z.infer<typeof McpRegistryPackageType>

export const McpRegistryPackage = z.object({
  registryType: McpRegistryPackageType,
  identifier: z.string().max(300),
  version: z.string().max(128),
  /** Where the package comes from, when not the package type's public registry. */
  registryBaseUrl: z.string().max(2048).optional(),
  /** The command line it would run, for the user to read (`npx -y pkg@1.2.3`). */
  command: z.string().max(2_000),
  args: z.array(McpRegistryArgument).max(50),
  inputs: z.array(McpRegistryInput).max(100)
})
export type McpRegistryPackage = z.infer<typeof McpRegistryPackage>

export const McpRegistryRemote = z.object({
  type: z.enum(['streamable-http', 'sse']),
  url: z.string().max(2048),
  inputs: z.array(McpRegistryInput).max(100)
})
export type McpRegistryRemote = z.infer<typeof McpRegistryRemote>

/** Something of a server that was left out, and why (shown on the detail). */
export const McpRegistryRefusal = z.object({ what: z.string().max(300), reason: z.string().max(500) })
export type McpRegistryRefusal = z.infer<typeof McpRegistryRefusal>

/** One server of the registry, checked: only what passed the allowlists is here. */
export const McpRegistryServer = z.object({
  /** Reverse-DNS name, `io.github.owner/server`. */
  name: z.string().max(200),
  /** The namespace of the name (`io.github.owner`): who published it. */
  publisher: z.string().max(200),
  title: z.string().max(200).optional(),
  description: z.string().max(1_000),
  version: z.string().max(128),
  /** http(s) only; anything else is refused and noted in `refused`. */
  repositoryUrl: z.string().max(2048).optional(),
  repositorySource: z.string().max(100).optional(),
  websiteUrl: z.string().max(2048).optional(),
  official: z
    .object({
      status: z.enum(['active', 'deprecated', 'deleted']).optional(),
      publishedAt: z.string().max(64).optional(),
      updatedAt: z.string().max(64).optional(),
      isLatest: z.boolean().optional()
    })
    .optional(),
  packages: z.array(McpRegistryPackage).max(20),
  remotes: z.array(McpRegistryRemote).max(20),
  refused: z.array(McpRegistryRefusal).max(60)
})
export type McpRegistryServer = z.infer<typeof McpRegistryServer>

/** A server as listed: with the id of the MCP server it was installed as, if any. */
export const McpRegistryListedServer = McpRegistryServer.extend({
  installedAs: z.string().max(64).optional()
})
export type McpRegistryListedServer = z.infer<typeof McpRegistryListedServer>

export const McpRegistryPage = z.object({
  registryUrl: z.string().max(2048),
  servers: z.array(McpRegistryListedServer),
  nextCursor: z.string().max(1_000).optional(),
  /** Servers of the page refused as a whole (bad name, huge fields), with why. */
  refused: z.array(McpRegistryRefusal),
  /** `cache` when the registry could not be reached and this page is the last one fetched. */
  source: z.enum(['live', 'cache']),
  /** When the page was fetched (ms since epoch). */
  fetchedAt: z.number(),
  /** Why the registry could not be reached (with `source: 'cache'`, or alone when nothing was cached). */
  offlineReason: z.string().max(1_000).optional()
})
export type McpRegistryPage = z.infer<typeof McpRegistryPage>

/** Which way to install: one of the server's packages, or one of its remotes. */
export const McpRegistryTarget = z
  .object({ kind: z.enum(['package', 'remote']), index: z.number().int().min(0).max(19) })
  .strict()
export type McpRegistryTarget = z.infer<typeof McpRegistryTarget>
