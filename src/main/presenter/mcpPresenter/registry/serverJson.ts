import type {
  McpRegistryArgument,
  McpRegistryInput,
  McpRegistryPackage,
  McpRegistryPackageType,
  McpRegistryRefusal,
  McpRegistryRemote,
  McpRegistryServer
} from '@shared/types/mcpRegistry'
import { sanitizeServerText } from '../serverText'

/**
 * Reads registry answers (server.json inside `{server, _meta}`, or the flat shape of registries
 * from before 2025-09-29) into McpRegistryServer. Everything here is untrusted: each field is
 * taken only when it passes an allowlist (types, charsets, lengths, URL schemes); a server whose
 * name, version or description fails is refused as a whole, a package or remote that fails is
 * left out with its reason, so the user sees what was refused and why.
 */

export interface ReadOptions {
  /** Tests serve remotes and package registries on this machine over plain http. */
  allowLoopbackHttp: boolean
}

const OFFICIAL_META = 'io.modelcontextprotocol.registry/official'

/** Reverse-DNS namespace, one slash, server name (the registry's own pattern). */
export const SERVER_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/
/** A pinned version: no ranges, no wildcards, no `latest`. */
export const VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,127}$/
const NPM_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/
const PYPI_VERSION =
  /^(?:\d+!)?\d+(?:\.\d+)*(?:(?:a|b|rc)\d+)?(?:\.post\d+)?(?:\.dev\d+)?(?:\+[A-Za-z0-9.]+)?$/
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/
const PYPI_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/
/** `[host[:port]/]path[:tag]` of an image; digests and tags only through the version. */
const OCI_NAME =
  /^(?:[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::\d{1,5})?\/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?$/
const OCI_TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/
/** RFC 9110 token. */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/
/** Headers the HTTP client sets itself; a server.json naming them is refused. */
const CLIENT_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'proxy-authorization',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id'
])
/**
 * Variables that steer the runtime, the loader or the shell rather than the server (the docker
 * CLI runs on the host: `DOCKER_HOST` would send the container elsewhere); the user may still
 * set them by hand in the server's form.
 */
const RUNTIME_VARIABLE =
  /^(?:PATH|HOME|SHELL|ENV|BASH_ENV|TMPDIR|IFS|PS4|PROMPT_COMMAND|(?:LD|DYLD|NODE|NPM|UV|PYTHON|PIP|DOCKER|GIT|COREPACK|BUN|DENO)_\w*|PYTHONPATH|PYTHONHOME|PYTHONSTARTUP)$/i
const FLAG = /^-{1,2}[A-Za-z0-9][A-Za-z0-9._-]{0,100}$/
const RANGE_WORDS = /^(?:latest|next|\*|x)$/i

const LIMITS = {
  title: 100,
  description: 1_000,
  inputText: 1_000,
  value: 1_000,
  url: 2048,
  packages: 20,
  remotes: 20,
  inputs: 50,
  args: 50,
  choices: 50
}

class Refused extends Error {}

function refuse(reason: string): never {
  throw new Refused(reason)
}

/** A refused value quoted in a reason: cleaned and cut, never shown whole. */
function shown(value: string): string {
  const clean = sanitizeServerText(value)
  return JSON.stringify(clean.length > 60 ? `${clean.slice(0, 60)}…` : clean)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A string field within `max` characters, cleaned of control and invisible characters. */
function text(value: unknown, what: string, max: number, required = false): string | undefined {
  if (value === undefined || value === null) {
    if (required) refuse(`${what} is missing`)
    return undefined
  }
  if (typeof value !== 'string') refuse(`${what} is not text`)
  if (value.length > max) refuse(`${what} is ${value.length} characters long (at most ${max})`)
  const clean = sanitizeServerText(value).trim()
  if (required && !clean) refuse(`${what} is empty`)
  return clean || undefined
}

/**
 * A name, identifier or version: checked as sent, never cleaned first (cleaning could turn a
 * refused value into an accepted one).
 */
function plain(value: unknown, what: string, max: number): string {
  if (value === undefined || value === null || value === '') refuse(`${what} is missing`)
  if (typeof value !== 'string') refuse(`${what} is not text`)
  if (value.length > max) refuse(`${what} is ${value.length} characters long (at most ${max})`)
  return value
}

function bool(value: unknown): boolean {
  return value === true
}

function list(value: unknown, what: string, max: number): unknown[] {
  if (value === undefined || value === null) return []
  if (!Array.isArray(value)) refuse(`${what} is not a list`)
  if (value.length > max) refuse(`${what} has ${value.length} entries (at most ${max})`)
  return value
}

/** camelCase field, or the snake_case of registries before 2025-09-16. */
function field(object: Record<string, unknown>, camel: string): unknown {
  if (camel in object) return object[camel]
  return object[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)]
}

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname)
}

/**
 * An address the app will connect to or open: https, or plain http to this machine when the
 * test knob allows it; no credentials in it. Returns the normalized URL.
 */
export function checkedUrl(value: unknown, what: string, options: ReadOptions): string {
  const raw = text(value, what, LIMITS.url, true)!
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    refuse(`${what} is not a URL`)
  }
  const loopbackHttp = url.protocol === 'http:' && options.allowLoopbackHttp && isLoopbackHost(url.hostname)
  if (url.protocol !== 'https:' && !loopbackHttp)
    refuse(`${what} must be an https address (got ${url.protocol})`)
  if (url.username || url.password) refuse(`${what} must not carry a user name or password`)
  return url.href
}

/** A link shown to the user (repository, website): http(s) only, else dropped with the reason. */
function linkUrl(value: unknown, what: string, refused: McpRegistryRefusal[]): string | undefined {
  if (value === undefined || value === null || value === '') return undefined
  try {
    const raw = text(value, what, LIMITS.url, true)!
    const url = new URL(raw)
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      refuse(`only http(s) links are shown (got ${url.protocol})`)
    if (url.username || url.password) refuse('the link carries a user name or password')
    return url.href
  } catch (error) {
    refused.push({ what, reason: reasonOf(error, 'not a URL') })
    return undefined
  }
}

function reasonOf(error: unknown, fallback: string): string {
  if (error instanceof Refused) return error.message
  return fallback
}

function input(
  raw: unknown,
  kind: McpRegistryInput['kind'],
  key: string,
  name: string,
  what: string
): McpRegistryInput {
  const entry = isObject(raw) ? raw : {}
  const choices = list(field(entry, 'choices'), `${what}: choices`, LIMITS.choices).map((choice, i) =>
    text(choice, `${what}: choice ${i + 1}`, 200, true)!
  )
  return {
    key,
    kind,
    name,
    description: text(field(entry, 'description'), `${what}: description`, LIMITS.inputText) ?? '',
    isRequired: bool(field(entry, 'isRequired')),
    isSecret: bool(field(entry, 'isSecret')),
    default: text(field(entry, 'default'), `${what}: default`, LIMITS.value),
    placeholder: text(field(entry, 'placeholder'), `${what}: placeholder`, LIMITS.inputText),
    ...(choices.length ? { choices } : {})
  }
}

/** Environment variables or headers: a fixed `value` becomes a non-editable default. */
function keyValueInputs(raw: unknown, kind: 'env' | 'header', what: string): McpRegistryInput[] {
  const seen = new Set<string>()
  return list(raw, what, LIMITS.inputs).map((entry, i) => {
    if (!isObject(entry)) refuse(`${what} ${i + 1} is not an object`)
    const name = plain(entry.name, `${what} ${i + 1}: name`, 128)
    if (kind === 'env' && !ENV_NAME.test(name))
      refuse(`${what} ${shown(name)} is not a variable name (letters, digits and _ only)`)
    if (kind === 'env' && RUNTIME_VARIABLE.test(name))
      refuse(
        `${what} ${shown(name)} steers the runtime or the system, not the server; set it by hand if you mean it`
      )
    if (kind === 'header' && (!HEADER_NAME.test(name) || CLIENT_HEADERS.has(name.toLowerCase())))
      refuse(`header ${shown(name)} is not a header a server may ask for`)
    const lower = name.toLowerCase()
    if (seen.has(lower)) refuse(`${what} ${shown(name)} is listed twice`)
    seen.add(lower)
    const made = input(entry, kind, `${kind}:${name}`, name, `${what} ${shown(name)}`)
    // A fixed value the user does not set: it fills the field and is required.
    const fixed = text(entry.value, `${what} ${shown(name)}: value`, LIMITS.value)
    return fixed === undefined ? made : { ...made, default: fixed, isRequired: true }
  })
}

function argumentsOf(
  raw: unknown,
  what: string,
  inputs: McpRegistryInput[],
  keyStart: number
): McpRegistryArgument[] {
  return list(raw, what, LIMITS.args).map((entry, i) => {
    if (!isObject(entry)) refuse(`${what} ${i + 1} is not an object`)
    const type = entry.type
    if (type !== 'positional' && type !== 'named') refuse(`${what} ${i + 1} has an unknown type`)
    const flag = type === 'named' ? plain(entry.name, `${what} ${i + 1}: name`, 100) : undefined
    if (flag !== undefined && !FLAG.test(flag)) refuse(`${what} ${i + 1}: ${shown(flag)} is not a --flag`)
    const value = text(entry.value, `${what} ${i + 1}: value`, LIMITS.value)
    if (value !== undefined) return { flag, value }
    const hint = text(field(entry, 'valueHint'), `${what} ${i + 1}: valueHint`, 100)
    const key = `arg:${keyStart + i}`
    inputs.push(input(entry, 'arg', key, flag ?? hint ?? `argument ${i + 1}`, `${what} ${i + 1}`))
    return { flag, inputKey: key }
  })
}

function pinnedVersion(value: unknown, what: string, pattern: RegExp): string {
  const version = plain(value, what, 128)
  if (RANGE_WORDS.test(version) || !VERSION.test(version) || !pattern.test(version))
    refuse(`${what} ${shown(version)} is not one exact version`)
  return version
}

function packageOf(raw: unknown, options: ReadOptions): McpRegistryPackage {
  if (!isObject(raw)) refuse('not an object')
  const registryType = field(raw, 'registryType')
  if (registryType !== 'npm' && registryType !== 'pypi' && registryType !== 'oci')
    refuse(
      `package type ${JSON.stringify(String(registryType).slice(0, 40))} is not one the app installs (npm, pypi, oci)`
    )
  const transport = field(raw, 'transport')
  const transportType = isObject(transport) ? transport.type : (field(raw, 'transportType') ?? 'stdio')
  if (transportType !== 'stdio')
    refuse(
      `transport ${JSON.stringify(String(transportType).slice(0, 40))}: only stdio packages are installed`
    )
  let identifier = plain(raw.identifier ?? raw.name, 'identifier', 300)
  let version: string
  if (registryType === 'npm') {
    if (identifier.length > 214 || !NPM_NAME.test(identifier))
      refuse(`${shown(identifier)} is not an npm package name`)
    version = pinnedVersion(raw.version, 'version', NPM_VERSION)
  } else if (registryType === 'pypi') {
    if (identifier.length > 100 || !PYPI_NAME.test(identifier))
      refuse(`${shown(identifier)} is not a PyPI package name`)
    version = pinnedVersion(raw.version, 'version', PYPI_VERSION)
  } else {
    if (!OCI_NAME.test(identifier)) refuse(`${shown(identifier)} is not an image name`)
    // Newer server.json puts the tag in the identifier; older ones give it as the version.
    const tagAt = identifier.lastIndexOf(':')
    const tag = tagAt > identifier.lastIndexOf('/') ? identifier.slice(tagAt + 1) : undefined
    if (tag !== undefined) identifier = identifier.slice(0, tagAt)
    version = pinnedVersion(raw.version ?? tag, 'version', OCI_TAG)
  }
  const baseUrl = field(raw, 'registryBaseUrl')
  const registryBaseUrl =
    baseUrl === undefined || baseUrl === null || baseUrl === ''
      ? undefined
      : checkedUrl(baseUrl, 'registryBaseUrl', options)
  const inputs: McpRegistryInput[] = keyValueInputs(field(raw, 'environmentVariables'), 'env', 'variable')
  // Runtime arguments (docker's `-v /:/host`, npx's `--registry`) are never passed: the app builds the runtime's line.
  const args = argumentsOf(field(raw, 'packageArguments'), 'argument', inputs, 0)
  const pkg = {
    registryType: registryType as McpRegistryPackageType,
    identifier,
    version,
    registryBaseUrl,
    args,
    inputs
  }
  return { ...pkg, command: commandPreview(pkg) }
}

/** The line the package runs as, for display; `installPlan.ts` builds the same from the same fields. */
export function commandLine(
  pkg: Pick<McpRegistryPackage, 'registryType' | 'identifier' | 'version' | 'inputs'>
): {
  command: string
  args: string[]
} {
  if (pkg.registryType === 'npm') return { command: 'npx', args: ['-y', `${pkg.identifier}@${pkg.version}`] }
  if (pkg.registryType === 'pypi') return { command: 'uvx', args: [`${pkg.identifier}==${pkg.version}`] }
  const envFlags = pkg.inputs.filter((i) => i.kind === 'env').flatMap((i) => ['-e', i.name])
  return { command: 'docker', args: ['run', '-i', '--rm', ...envFlags, `${pkg.identifier}:${pkg.version}`] }
}

function commandPreview(pkg: Omit<McpRegistryPackage, 'command'>): string {
  const { command, args } = commandLine(pkg)
  const asked = (key: string) => `<${pkg.inputs.find((i) => i.key === key)?.name ?? key}>`
  const rest = pkg.args.map((a) => [a.flag, a.value ?? (a.inputKey ? asked(a.inputKey) : undefined)])
  return [command, ...args, ...rest.flat().filter((p): p is string => p !== undefined)].join(' ')
}

function remoteOf(raw: unknown, options: ReadOptions): McpRegistryRemote {
  if (!isObject(raw)) refuse('not an object')
  const type = raw.type ?? field(raw, 'transportType')
  if (type !== 'streamable-http' && type !== 'sse')
    refuse(
      `transport ${JSON.stringify(String(type).slice(0, 40))} is not one the app connects to (streamable-http, sse)`
    )
  if (typeof raw.url === 'string' && /[{}]/.test(raw.url))
    refuse('URLs with {variables} are not supported; add this server by hand')
  const url = checkedUrl(raw.url, 'url', options)
  return { type, url, inputs: keyValueInputs(raw.headers, 'header', 'header') }
}

function officialOf(meta: unknown): McpRegistryServer['official'] {
  if (!isObject(meta)) return undefined
  const official = meta[OFFICIAL_META]
  if (!isObject(official)) return undefined
  const status = official.status
  const date = (value: unknown) =>
    typeof value === 'string' && value.length <= 64 && !Number.isNaN(Date.parse(value)) ? value : undefined
  return {
    status: status === 'active' || status === 'deprecated' || status === 'deleted' ? status : undefined,
    publishedAt: date(field(official, 'publishedAt')),
    updatedAt: date(field(official, 'updatedAt')),
    isLatest:
      typeof field(official, 'isLatest') === 'boolean' ? (field(official, 'isLatest') as boolean) : undefined
  }
}

/** One list item (or a detail answer) → a checked server, or the reason it is refused. */
export function readServer(
  item: unknown,
  options: ReadOptions
): { server: McpRegistryServer } | { refused: McpRegistryRefusal } {
  const wrapped = isObject(item) && isObject(item.server)
  const server = wrapped ? (item as { server: unknown }).server : item
  const meta = wrapped ? (item as { _meta?: unknown })._meta : isObject(item) ? item._meta : undefined
  const label =
    isObject(server) && typeof server.name === 'string'
      ? sanitizeServerText(server.name.slice(0, 200))
      : '(no name)'
  try {
    if (!isObject(server)) refuse('not an object')
    const name = plain(server.name, 'name', 200)
    if (!SERVER_NAME.test(name)) refuse(`${shown(name)} is not a reverse-DNS server name`)
    const versionRaw =
      server.version ?? (isObject(server.version_detail) ? server.version_detail.version : undefined)
    const version = plain(versionRaw, 'version', 128)
    if (!VERSION.test(version)) refuse(`version ${shown(version)} has characters a version does not have`)
    const refused: McpRegistryRefusal[] = []
    const repository = isObject(server.repository) ? server.repository : undefined
    const repositorySource = repository ? text(repository.source, 'repository source', 100) : undefined
    const packages: McpRegistryPackage[] = []
    list(server.packages, 'packages', LIMITS.packages).forEach((raw, i) => {
      try {
        packages.push(packageOf(raw, options))
      } catch (error) {
        if (!(error instanceof Refused)) throw error
        refused.push({ what: `package ${i + 1}`, reason: error.message })
      }
    })
    const remotes: McpRegistryRemote[] = []
    list(server.remotes, 'remotes', LIMITS.remotes).forEach((raw, i) => {
      try {
        remotes.push(remoteOf(raw, options))
      } catch (error) {
        if (!(error instanceof Refused)) throw error
        refused.push({ what: `remote ${i + 1}`, reason: error.message })
      }
    })
    const official =
      officialOf(meta) ??
      // Before 2025-09-29 the status was a field of the server itself.
      (typeof server.status === 'string'
        ? officialOf({ [OFFICIAL_META]: { status: server.status } })
        : undefined)
    return {
      server: {
        name,
        publisher: name.slice(0, name.indexOf('/')),
        title: text(server.title, 'title', LIMITS.title),
        description: text(server.description, 'description', LIMITS.description, true)!,
        version,
        repositoryUrl: repository ? linkUrl(repository.url, 'repository link', refused) : undefined,
        repositorySource,
        websiteUrl: linkUrl(field(server, 'websiteUrl'), 'website link', refused),
        official,
        packages,
        remotes,
        refused
      }
    }
  } catch (error) {
    if (!(error instanceof Refused)) throw error
    return { refused: { what: label, reason: error.message } }
  }
}

/** A list answer: its items and the cursor of the next page (`metadata.nextCursor`, or `next_cursor`). */
export function readServerList(
  body: unknown,
  options: ReadOptions,
  maxItems: number
): { servers: McpRegistryServer[]; refused: McpRegistryRefusal[]; nextCursor?: string } {
  if (!isObject(body) || !Array.isArray(body.servers))
    refuse('the registry answered something that is not a server list')
  const servers: McpRegistryServer[] = []
  const refused: McpRegistryRefusal[] = []
  const items = body.servers.slice(0, maxItems)
  if (body.servers.length > maxItems)
    refused.push({
      what: 'page',
      reason: `${body.servers.length - maxItems} servers past the first ${maxItems} were left out`
    })
  for (const item of items) {
    const read = readServer(item, options)
    if ('server' in read) servers.push(read.server)
    else refused.push(read.refused)
  }
  const metadata = isObject(body.metadata) ? body.metadata : {}
  const cursor = field(metadata, 'nextCursor')
  const nextCursor =
    typeof cursor === 'string' && cursor.length > 0 && cursor.length <= 1_000 && /^[\x21-\x7e]+$/.test(cursor)
      ? cursor
      : undefined
  return { servers, refused, nextCursor }
}

export { Refused as RegistryDataRefused }
