import { expandVariables, mergePaths } from '../mcpPresenter/shellEnv'

/**
 * An agent's environment: the login-shell env (a safe set of the app's variables with the
 * user's PATH), then the custom agent's env, then the user's overrides. `~` and `$VAR` expand
 * against what came before; a given PATH goes in front of the login PATH instead of replacing it.
 */
export function agentEnvironment(
  base: Record<string, string>,
  agentEnv: Record<string, string>,
  overrides: Record<string, string>
): Record<string, string> {
  let env = { ...base }
  for (const layer of [agentEnv, overrides]) {
    const next = { ...env }
    for (const [name, value] of Object.entries(layer)) next[name] = expandVariables(value, env)
    if (layer.PATH) next.PATH = mergePaths(expandVariables(layer.PATH, env), env.PATH)
    env = next
  }
  return env
}
