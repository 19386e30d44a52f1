import type { EventSink } from '../../bridge/events'
import type { Platform } from '../../platform/types'
import type { ConfigPresenter } from '../configPresenter'
import type { LlmProviderPresenter } from '../llmProviderPresenter'
import { McpPresenter } from '../mcpPresenter'
import { createMcpPermissionGate } from '../mcpPresenter/permissionGate'
import { createCoreStreamSampler } from '../mcpPresenter/samplingRunner'
import { createShellEnvResolver, withAllowedVariables } from '../mcpPresenter/shellEnv'
import type { PermissionPresenter } from '../permission'
import type { SessionPresenter } from '../sessionPresenter'

/**
 * One login-shell resolution for stdio MCP servers, ACP agents and exec; each gets only the
 * allowlisted variables and the names the user allowed in Settings.
 */
export function loginShellEnv(
  config: ConfigPresenter,
  options: { shellEnv?: () => Promise<Record<string, string>>; resolveAtLaunch?: boolean }
): () => Promise<Record<string, string>> {
  const shellEnv = withAllowedVariables(
    options.shellEnv ?? createShellEnvResolver(),
    () => config.getSettings().allowedEnvVariables
  )
  if (options.resolveAtLaunch) void shellEnv()
  return shellEnv
}

/** MCP servers, their calls judged by our permissions, sampling through our providers; enabled ones start in the background. */
export function createMcpPresenter(parts: {
  platform: Platform
  config: ConfigPresenter
  events: EventSink
  shellEnv: () => Promise<Record<string, string>>
  fetch: typeof globalThis.fetch
  permissions: PermissionPresenter
  llmProviders: LlmProviderPresenter
  sessions: SessionPresenter
  log: (message: string) => void
}): McpPresenter {
  const { platform, llmProviders } = parts
  const mcp = new McpPresenter({
    config: parts.config,
    events: parts.events,
    shellEnv: parts.shellEnv,
    fetch: parts.fetch,
    clientInfo: { name: platform.appName, version: platform.appVersion },
    permissionGate: createMcpPermissionGate(parts.permissions),
    sampler: () => createCoreStreamSampler(llmProviders),
    oauth: { openUrl: (url) => platform.openExternal(url), clientName: platform.appName },
    builtinDeps: { history: parts.sessions },
    // Test knob: a fake registry, remote and npm registry on this machine over plain http.
    registryAllowLoopbackHttp: process.env.DEEPCHAT_TEST_REGISTRY_LOOPBACK === '1',
    log: parts.log
  })
  // Servers start in the background: a slow or broken one never delays the app.
  void mcp.startEnabledServers()
  return mcp
}
