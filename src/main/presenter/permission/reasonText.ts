import type { ReasonCode } from '@shared/types/permission'

/**
 * The English wording of every permission reason, keyed by its stable code. The model, the logs
 * and the `reason`/`reasons`/`lineReasons` strings all come from here; the renderer translates
 * the code (`permissionReasons.<code>`) and falls back to this text.
 */
const ENGLISH = {
  // git
  git_runs_programs: (p: { option: string }) => `git ${p.option} can make git run other programs`,
  git_writes_file: (p: { sub: string }) => `git ${p.sub} writes a file`,
  git_deletes: (p: { sub: string }) => `git ${p.sub} deletes`,
  git_force_push: () => 'force push rewrites the remote',
  git_network: (p: { sub: string }) => `git ${p.sub} talks to a remote`,
  git_reset_hard: () => 'git reset --hard drops changes',
  git_discards_changes: (p: { sub: string }) => `git ${p.sub} discards working changes`,
  git_deletes_history: (p: { sub: string }) => `git ${p.sub} deletes files or history`,
  git_writes_repository: (p: { sub: string }) => `git ${p.sub} writes the repository (.git)`,
  git_config_write: () => 'git config changes settings that can name programs git runs later',
  // package managers
  package_install: (p: { program: string; sub: string }) =>
    `${p.program} ${p.sub} downloads and runs install scripts`,
  package_runs_code: (p: { program: string; sub: string }) =>
    `${p.program} ${p.sub} runs project code`.replace(/\s+/g, ' ').trim(),
  // sed, find, tail, pagers
  sed_in_place: () => 'sed -i edits files in place',
  sed_script_file: () => 'sed runs a script file',
  sed_unsafe_script: () => 'the sed script may write files or run commands',
  find_delete: () => 'find -delete removes files',
  find_exec: () => 'find -exec runs another command',
  find_writes: () => 'find writes a file',
  tail_follow: () => 'tail -f never ends',
  interactive_pager: () => 'interactive pager',
  // options of read-only programs (readOnlyPrograms.ts)
  option_runs_program: (p: { program: string; option: string }) =>
    `${p.program} ${p.option} runs another program`,
  option_writes_file: (p: { program: string; option: string }) => `${p.program} ${p.option} writes a file`,
  paths_from_input: (p: { program: string; option: string }) =>
    `${p.program} ${p.option} reads paths that are only known at run time`,
  follows_links: (p: { program: string; option: string }) =>
    `${p.program} ${p.option} follows symbolic links, which may lead outside the workspace`,
  changes_system: (p: { program: string; option: string }) =>
    `${p.program} ${p.option} changes a system setting`,
  archive_extract: (p: { program: string }) =>
    `${p.program} extracts an archive, whose links may lead anywhere`,
  env_dump: (p: { program: string }) => `${p.program} shows environment variables, which may hold secrets`,
  // wrappers
  xargs_input: () => 'xargs takes its arguments from input, known only at run time',
  env_split_string: () => 'env -S builds the command from a string at run time',
  // programs by table
  destructive_program: (p: { program: string }) => `${p.program} deletes or stops things`,
  network_program: (p: { program: string }) => `${p.program} uses the network`,
  network_program_writes: (p: { program: string }) => `${p.program} uses the network and writes a file`,
  interpreter: (p: { program: string }) => `${p.program} runs arbitrary code`,
  unknown_program: (p: { program: string }) => `${p.program} is not a known read-only command`,
  // one sub-command
  loader_variable: (p: { name: string }) => `sets ${p.name}, which changes what runs`,
  dynamic_program: () => 'the program name is computed at run time',
  eval_code: (p: { program: string }) => `${p.program} runs code assembled at run time`,
  pipe_to_interpreter: (p: { program: string }) => `pipes text into ${p.program}, which runs it`,
  dynamic_argument: () => 'an argument is computed at run time',
  cd_previous: () => 'cd - goes to a folder only known at run time',
  elevated: (p: { program: string }) => `${p.program} runs with elevated privileges`,
  sensitive_write: (p: { path: string }) => `writes a sensitive file: ${p.path}`,
  broad_write: (p: { path: string }) => `changes a whole top-level folder: ${p.path}`,
  outside_read: (p: { path: string }) => `reads outside the workspace: ${p.path}`,
  outside_destructive: (p: { path: string }) => `deletes or changes outside the workspace: ${p.path}`,
  outside_write: (p: { path: string }) => `writes outside the workspace: ${p.path}`,
  redirect_output: (p: { target: string }) => `redirects output to ${p.target}`,
  protected_write: (p: { path: string; entry: string }) =>
    `writes ${p.path} in ${p.entry}, which configures programs that run later`,
  protected_git_dir: (p: { path: string; entry: string }) =>
    `writes ${p.path} in ${p.entry}, a git directory whose config and hooks can run programs later`,
  protected_git_creation: (p: { path: string; entry: string }) =>
    `writes ${p.path}, which would make ${p.entry} a git directory whose config could run programs later`,
  protected_git_reads: (p: { path: string; entry: string }) =>
    `writes ${p.path} in ${p.entry}, which git reads or runs through a repository's config`,
  protected_config_unreadable: (p: { path: string; entry: string }) =>
    `writes ${p.path} in ${p.entry}, a repository whose git config cannot be read`,
  protected_link_target: (p: { path: string; entry: string }) =>
    `writes ${p.path}, which the protected entry ${p.entry} links to`,
  dynamic_tilde: (p: { word: string }) => `${p.word} names a folder only known at run time`,
  unexpandable_word: (p: { word: string }) => `${p.word} expands to too many words or files to check`,
  // the line as a whole
  subshell: () => 'runs a subshell',
  command_substitution: () => 'uses command substitution',
  process_substitution: () => 'uses process substitution',
  shell_function: () => 'defines a shell function',
  coprocess: () => 'starts a coprocess',
  cwd_outside: () => 'runs outside the workspace',
  parse_error: (p: { message: string }) => `the line does not parse cleanly: ${p.message}`,
  background: () => 'runs a command in the background',
  no_command: () => 'no command could be recognised',
  secret_variable: (p: { name: string }) => `expands ${p.name}, which looks like a secret`,
  indirect_expansion: (p: { text: string }) => `${p.text} expands a variable chosen at run time`,
  cdpath: () => 'sets CDPATH, so cd may go anywhere',
  command_may_change: () => 'the command may change things',
  outside_sandbox: () => 'asks to run outside the sandbox, with your access to files and the network',
  // file and settings requests
  outside_workspace_read: (p: { paths: string }) => `Read access outside the workspace: ${p.paths}`,
  outside_workspace_write: (p: { paths: string }) => `Write access outside the workspace: ${p.paths}`,
  protected_path: (p: { paths: string }) =>
    `Changes a protected workspace entry (git, editor, direnv or DeepChat config can make programs run later): ${p.paths}`,
  app_data: (p: { paths: string }) =>
    `Touches DeepChat Desk's own data folder (database, logs, other chats): ${p.paths}`,
  secrets_file: (p: { paths: string }) =>
    `DeepChat Desk's secrets file, which no tool may read or change: ${p.paths}`,
  unresolvable_path: (p: { paths: string; error: string }) =>
    `Cannot tell where ${p.paths} really leads (${p.error}), so it counts as outside the workspace`,
  change_setting: (p: { setting: string; summary: string }) => `Change setting ${p.setting}: ${p.summary}`,
  // MCP
  mcp_call: (p: { tool: string; server: string }) => `Call MCP tool ${p.tool} on server ${p.server}`,
  web_fetch_domain: (p: { host: string }) => `Read a web page from ${p.host}`
} as const

type English = typeof ENGLISH
export type ReasonCodeId = keyof English

/** Every code the main side can produce (the renderer's locales must word each one). */
export const REASON_CODES = Object.keys(ENGLISH) as ReasonCodeId[]

/** A reason as both a stable code (for translation) and its English text (for model and logs). */
export interface Reason {
  code: ReasonCode
  text: string
}

function isReasonCode(code: string): code is ReasonCodeId {
  return Object.hasOwn(ENGLISH, code)
}

/** The English text of a code; an unknown code is returned as it is. */
export function englishReason(code: string, params: Record<string, string> = {}): string {
  if (!isReasonCode(code)) return code
  return (ENGLISH[code] as (p: Record<string, string>) => string)(params)
}

/** Builds a reason from a code and the params its wording needs. */
export function reasonOf<K extends ReasonCodeId>(code: K, ...params: Parameters<English[K]>): Reason {
  const values = (params[0] ?? {}) as Record<string, string>
  const reasonCode: ReasonCode = Object.keys(values).length ? { code, params: { ...values } } : { code }
  return { code: reasonCode, text: englishReason(code, values) }
}

/** Ordered, de-duplicated (by English text) reasons, kept as parallel texts and codes. */
export class ReasonList {
  readonly texts: string[] = []
  readonly codes: ReasonCode[] = []

  add(reason: Reason): void {
    if (this.texts.includes(reason.text)) return
    this.texts.push(reason.text)
    this.codes.push(reason.code)
  }

  get size(): number {
    return this.texts.length
  }
}
