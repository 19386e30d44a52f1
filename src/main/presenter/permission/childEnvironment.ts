/**
 * The environment every child process the model can reach starts with: `exec` commands (in the
 * sandbox and on the host), stdio MCP servers and ACP agents. Built from an allowlist of names,
 * because a list of secret-looking names always misses one (`GITHUB_PAT`, `MYSQL_PWD`,
 * `SENTRY_DSN`, …): whatever is not named here or by the user is absent.
 *
 * A name belongs here only if no tool or user puts a secret in its value. Variables that may
 * carry credentials in their value are left out even when tools read them: proxies
 * (`http://user:pass@host`), package indexes (`PIP_INDEX_URL`, `GOPROXY`, `NPM_CONFIG_*`),
 * option strings (`JAVA_TOOL_OPTIONS`, `MAVEN_OPTS`, `NODE_OPTIONS`), and session sockets that
 * grant the user's identity (`SSH_AUTH_SOCK`, `DBUS_SESSION_BUS_ADDRESS`). The user adds those
 * by name in Settings › Permissions when they want them passed.
 */

/** The session basics: who, where, which language and terminal. */
const SESSION = [
  'PATH',
  'HOME',
  'LANG',
  'LANGUAGE',
  // The locale categories by name, not `LC_*`: a prefix would pass `LC_SECRET` too.
  'LC_ALL',
  'LC_CTYPE',
  'LC_COLLATE',
  'LC_MESSAGES',
  'LC_MONETARY',
  'LC_NUMERIC',
  'LC_TIME',
  'LC_ADDRESS',
  'LC_IDENTIFICATION',
  'LC_MEASUREMENT',
  'LC_NAME',
  'LC_PAPER',
  'LC_TELEPHONE',
  'TERM',
  'COLORTERM',
  'TZ',
  'USER',
  'LOGNAME',
  'SHELL',
  'TMPDIR',
  // Standard per-user folders (paths only); tools put caches and config there.
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'XDG_RUNTIME_DIR',
  'XDG_CONFIG_DIRS',
  'XDG_DATA_DIRS'
]

/**
 * Where toolchains live and which version is active: install folders, version names and the
 * active virtual environment. Paths and version names only.
 */
const TOOLCHAINS = [
  // Go
  'GOROOT',
  'GOPATH',
  'GOBIN',
  'GOCACHE',
  'GOMODCACHE',
  // Rust
  'CARGO_HOME',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  // JVM and Android
  'JAVA_HOME',
  'GRADLE_USER_HOME',
  'MAVEN_HOME',
  'M2_HOME',
  'ANDROID_HOME',
  'ANDROID_SDK_ROOT',
  // Node and JavaScript runtimes
  'NVM_DIR',
  'NVM_BIN',
  'NVM_INC',
  'VOLTA_HOME',
  'FNM_DIR',
  'PNPM_HOME',
  'BUN_INSTALL',
  'DENO_DIR',
  'DENO_INSTALL',
  // Python
  'PYENV_ROOT',
  'PYENV_VERSION',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'CONDA_EXE',
  'CONDA_PYTHON_EXE',
  'CONDA_SHLVL',
  'PIPX_HOME',
  'PIPX_BIN_DIR',
  // Ruby
  'RBENV_ROOT',
  'RBENV_VERSION',
  'GEM_HOME',
  'GEM_PATH',
  // Version managers and package managers' install folders
  'ASDF_DIR',
  'ASDF_DATA_DIR',
  'SDKMAN_DIR',
  'HOMEBREW_PREFIX',
  'HOMEBREW_CELLAR',
  'HOMEBREW_REPOSITORY',
  'DOTNET_ROOT',
  // Extra certificate authorities (file and folder paths), needed behind company TLS proxies.
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'NODE_EXTRA_CA_CERTS',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE'
]

/** What Windows programs need to start at all (folders, the shell, the executable suffixes). */
const WINDOWS = [
  'PATHEXT',
  'SYSTEMROOT',
  'SYSTEMDRIVE',
  'WINDIR',
  'COMSPEC',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'USERNAME',
  'USERDOMAIN',
  'HOMEDRIVE',
  'HOMEPATH',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'PROGRAMFILES(X86)',
  'PROGRAMW6432',
  'COMMONPROGRAMFILES',
  'COMMONPROGRAMFILES(X86)',
  'PROCESSOR_ARCHITECTURE',
  'NUMBER_OF_PROCESSORS',
  'OS',
  'PSMODULEPATH'
]

/** Every name passed without the user asking, for this platform. */
export function builtInVariableNames(platform: NodeJS.Platform = process.platform): readonly string[] {
  return platform === 'win32' ? [...SESSION, ...TOOLCHAINS, ...WINDOWS] : [...SESSION, ...TOOLCHAINS]
}

/** Windows variable names are case-insensitive (`Path`, `SystemRoot`). */
function nameKey(name: string, platform: NodeJS.Platform): string {
  return platform === 'win32' ? name.toUpperCase() : name
}

/** The last set built: every command asks with the same names, and building it costs a quarter millisecond. */
let lastAllowed: { key: string; names: Set<string> } | null = null

function allowedNames(userAllowed: readonly string[], platform: NodeJS.Platform): Set<string> {
  const key = `${platform}\0${userAllowed.join('\0')}`
  if (lastAllowed?.key === key) return lastAllowed.names
  const names = new Set(
    [...builtInVariableNames(platform), ...userAllowed].map((name) => nameKey(name, platform))
  )
  lastAllowed = { key, names }
  return names
}

/**
 * The variables of `source` a child may see: the built-in names and the ones the user allowed
 * in Settings. Everything else is absent, whatever its name looks like.
 */
export function childEnvironment(
  source: NodeJS.ProcessEnv,
  userAllowed: readonly string[] = [],
  platform: NodeJS.Platform = process.platform
): Record<string, string> {
  const allowed = allowedNames(userAllowed, platform)
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(source)) {
    if (value !== undefined && allowed.has(nameKey(name, platform))) out[name] = value
  }
  return out
}
