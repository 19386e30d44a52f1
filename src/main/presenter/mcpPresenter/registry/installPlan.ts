import { AppError } from '@shared/errors'
import type { McpServerInput } from '@shared/types/mcp'
import type {
  McpRegistryInput,
  McpRegistryPackageType,
  McpRegistryServer,
  McpRegistryTarget
} from '@shared/types/mcpRegistry'
import { commandLine } from './serverJson'

/** npm's own registry: a package from elsewhere gets `npm_config_registry` set to its registry. */
const NPM_PUBLIC_REGISTRY = 'https://registry.npmjs.org/'
const MAX_VALUE = 4_000

export interface InstallPlan {
  input: McpServerInput
  /** The runtime the command needs on the PATH (`npx`, `uvx`, `docker`); none for a remote. */
  runtime?: 'npx' | 'uvx' | 'docker'
  /** Env and header names the registry marks secret: stored like other MCP secrets. */
  secretKeys: { env: string[]; headers: string[] }
}

const RUNTIME: Record<McpRegistryPackageType, InstallPlan['runtime']> = {
  npm: 'npx',
  pypi: 'uvx',
  oci: 'docker'
}

/**
 * The MCP server config for one package or remote of a checked registry server, with the
 * user's values for its inputs. Versions are pinned (`pkg@1.2.3`, `pkg==1.2.3`, `image:1.2.3`);
 * every value is checked: known keys only, required ones present, choices kept to, no control
 * characters (no line breaks in headers).
 */
export function planInstall(
  server: McpRegistryServer,
  target: McpRegistryTarget,
  values: Record<string, string>
): InstallPlan {
  const name = (server.title ?? server.name.slice(server.name.indexOf('/') + 1)).slice(0, 100)
  const description = server.description
  if (target.kind === 'remote') {
    const remote = server.remotes[target.index]
    if (!remote) throw new AppError('invalid_input', `${server.name} has no remote ${target.index + 1}`)
    const given = resolveInputs(remote.inputs, values)
    return {
      input: {
        name,
        description,
        type: remote.type === 'sse' ? 'sse' : 'http',
        url: remote.url,
        headers: given.values('header')
      },
      secretKeys: { env: [], headers: given.secret('header') }
    }
  }
  const pkg = server.packages[target.index]
  if (!pkg) throw new AppError('invalid_input', `${server.name} has no package ${target.index + 1}`)
  const given = resolveInputs(pkg.inputs, values)
  const { command, args } = commandLine(pkg)
  const packageArgs = pkg.args.flatMap((arg) => {
    const value = arg.value ?? (arg.inputKey ? given.byKey.get(arg.inputKey) : undefined)
    if (value === undefined || value === '') return []
    return arg.flag ? [arg.flag, value] : [value]
  })
  const env = given.values('env')
  if (pkg.registryType === 'npm' && pkg.registryBaseUrl && pkg.registryBaseUrl !== NPM_PUBLIC_REGISTRY)
    env.npm_config_registry = pkg.registryBaseUrl
  return {
    input: { name, description, type: 'stdio', command, args: [...args, ...packageArgs], env },
    runtime: RUNTIME[pkg.registryType],
    secretKeys: { env: given.secret('env'), headers: [] }
  }
}

function resolveInputs(inputs: McpRegistryInput[], values: Record<string, string>) {
  const known = new Map(inputs.map((i) => [i.key, i]))
  for (const key of Object.keys(values))
    if (!known.has(key))
      throw new AppError('invalid_input', `"${key.slice(0, 100)}" is not a value this server asks for`)
  const byKey = new Map<string, string>()
  const missing: string[] = []
  for (const input of inputs) {
    const given = values[input.key]
    const value = given !== undefined && given !== '' ? given : (input.default ?? '')
    if (value === '') {
      if (input.isRequired) missing.push(input.name)
      continue
    }
    checkValue(input, value)
    byKey.set(input.key, value)
  }
  if (missing.length)
    throw new AppError('mcp_registry_missing_value', `Required before installing: ${missing.join(', ')}`, {
      missing
    })
  return {
    byKey,
    values(kind: 'env' | 'header'): Record<string, string> {
      const out: Record<string, string> = {}
      for (const input of inputs)
        if (input.kind === kind && byKey.has(input.key)) out[input.name] = byKey.get(input.key)!
      return out
    },
    secret(kind: 'env' | 'header'): string[] {
      return inputs.filter((i) => i.kind === kind && i.isSecret && byKey.has(i.key)).map((i) => i.name)
    }
  }
}

function checkValue(input: McpRegistryInput, value: string): void {
  if (value.length > MAX_VALUE)
    throw new AppError('invalid_input', `${input.name}: at most ${MAX_VALUE} characters`)
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  const control = input.kind === 'header' ? /[\x00-\x1f\x7f]/ : /[\x00\x7f]/
  if (control.test(value))
    throw new AppError(
      'invalid_input',
      `${input.name}: control characters are not allowed${input.kind === 'header' ? ' in a header' : ''}`
    )
  if (input.choices && !input.choices.includes(value))
    throw new AppError('invalid_input', `${input.name}: pick one of ${input.choices.join(', ')}`)
}
