export default {
  settingsPermissions: {
    nav: 'Permissions',
    title: 'Permissions',
    subtitle: 'What the agent may do without asking, and the decisions you asked it to remember.',
    defaultMode: 'Default mode for new chats',
    defaultModeHint: 'Each chat can still change its own mode.',
    modes: {
      default: {
        label: 'Ask before acting',
        hint: 'Read-only commands run in the sandbox; ask before commands that change things, protected files and tools. MCP tools ask too, read-only ones included, unless allowed for this chat or by a rule.'
      },
      accept_edits: {
        label: 'Accept edits',
        hint: 'Also edit files in the workspace and run commands that only change workspace files, in the sandbox; still ask for everything else. MCP tools ask too, read-only ones included, unless allowed for this chat or by a rule.'
      },
      sandboxed: {
        label: 'Auto in sandbox',
        hint: 'Any command runs unasked inside the sandbox: workspace writable except protected files, no network. Ask only for network, outside writes and protected files. MCP tools ask too, read-only ones included, unless allowed for this chat or by a rule.'
      },
      full_access: {
        label: 'Full access',
        hint: 'Never ask. Deny rules still apply. Use only in folders you can afford to lose.'
      }
    },
    sandbox: {
      on: 'Sandbox on',
      off: 'No sandbox',
      kinds: {
        bwrap: 'Commands that run without asking are sandboxed (bubblewrap)',
        seatbelt: 'Commands that run without asking are sandboxed (macOS sandbox)'
      },
      onHint:
        'They see the workspace and the system read-only, never your home folder, the app’s data or your secrets, and have no network.',
      none: 'Commands that run without asking are not sandboxed',
      offHint:
        'Only the command classifier guards them, and “Auto in sandbox” asks like “Accept edits”. {reason} On Linux, install bubblewrap (apt install bubblewrap) and restart the app.',
      reasons: {
        seatbelt_missing: 'The macOS sandbox (sandbox-exec) is missing.',
        unsupported_platform: 'There is no sandbox on {platform}.',
        bwrap_missing: 'bubblewrap (bwrap) is not installed.',
        bwrap_broken: 'bubblewrap does not work here (user namespaces may be off): {detail}'
      },
      socketGuards: {
        seccomp:
          'Unix sockets: refused by a seccomp filter. No local service’s socket (Docker, SSH agent, databases) is reachable, and none can be opened in the workspace either.',
        seatbelt:
          'Unix sockets: refused by the macOS sandbox profile. No local service’s socket is reachable, and none can be opened in the workspace either.',
        none: 'Unix sockets: not guarded on this machine (bubblewrap could not load a seccomp filter). A command could reach a local service’s socket, such as Docker’s.'
      }
    },
    environment: {
      title: 'Environment variables',
      hint: 'Commands, MCP servers and agents get only a small set of your environment: PATH, HOME, language, terminal, time zone and toolchain folders (Go, Rust, Java, Node, Python, Ruby). Everything else is absent for them. Add a variable’s name here to pass it too; only the name is stored. A server or agent also gets the variables set in its own settings.',
      none: 'No extra variables are passed.',
      name: 'Variable name',
      add: 'Allow',
      removeNamed: 'Stop passing {name}',
      added: '{name} is passed from the next command or server start.',
      removed: '{name} is no longer passed.',
      invalid: '“{name}” is not a variable name (letters, digits and _, not starting with a digit).',
      warning:
        'A command can print any variable it gets, and its output goes to the model. Allow keys and tokens only if the model may see them. Typical additions: HTTP_PROXY / HTTPS_PROXY / NO_PROXY behind a proxy, SSH_AUTH_SOCK for git over SSH with an agent.'
    },
    saved: 'Saved',
    rules: 'Remembered rules',
    rulesHint: 'Created when you choose “Always allow” or “Always deny”. Deny rules win over allow rules.',
    noRules: 'No remembered rules.',
    effect: 'Effect',
    scope: 'Scope',
    pattern: 'Pattern',
    created: 'Created',
    actions: 'Actions',
    effects: { allow: 'Allow', deny: 'Deny' },
    kinds: {
      read: 'Read files',
      write: 'Write files',
      exec: 'Run commands',
      mcp: 'MCP tool',
      settings: 'Settings tool',
      network: 'Web pages (domain)'
    },
    patternExamples: {
      read: '~/notes/**',
      write: '~/projects/app/**',
      exec: 'npm test*',
      mcp: 'github/*',
      settings: 'tool name',
      network: 'example.com'
    },
    revoke: 'Revoke',
    revokeNamed: 'Revoke the rule {pattern}',
    revoked: 'The rule was revoked.',
    addRule: 'Add rule',
    added: 'The rule was added.'
  },
  /** Permission reasons by code (see main/presenter/permission/reasonText.ts); params fill the braces. */
  permissionReasons: {
    git_runs_programs: 'git {option} can make git run other programs',
    git_writes_file: 'git {sub} writes a file',
    git_deletes: 'git {sub} deletes',
    git_force_push: 'force push rewrites the remote',
    git_network: 'git {sub} talks to a remote',
    git_reset_hard: 'git reset --hard drops changes',
    git_discards_changes: 'git {sub} discards working changes',
    git_deletes_history: 'git {sub} deletes files or history',
    git_writes_repository: 'git {sub} writes the repository (.git)',
    git_config_write: 'git config changes settings that can name programs git runs later',
    package_install: '{program} {sub} downloads and runs install scripts',
    package_runs_code: '{program} {sub} runs project code',
    sed_in_place: 'sed -i edits files in place',
    sed_script_file: 'sed runs a script file',
    sed_unsafe_script: 'the sed script may write files or run commands',
    find_delete: 'find -delete removes files',
    find_exec: 'find -exec runs another command',
    find_writes: 'find writes a file',
    tail_follow: 'tail -f never ends',
    interactive_pager: 'interactive pager',
    option_runs_program: '{program} {option} runs another program',
    option_writes_file: '{program} {option} writes a file',
    paths_from_input: '{program} {option} reads paths that are only known at run time',
    follows_links: '{program} {option} follows symbolic links, which may lead outside the workspace',
    changes_system: '{program} {option} changes a system setting',
    archive_extract: '{program} extracts an archive, whose links may lead anywhere',
    env_dump: '{program} shows environment variables, which may hold secrets',
    xargs_input: 'xargs takes its arguments from input, known only at run time',
    env_split_string: 'env -S builds the command from a string at run time',
    destructive_program: '{program} deletes or stops things',
    network_program: '{program} uses the network',
    network_program_writes: '{program} uses the network and writes a file',
    interpreter: '{program} runs arbitrary code',
    unknown_program: '{program} is not a known read-only command',
    loader_variable: 'sets {name}, which changes what runs',
    dynamic_program: 'the program name is computed at run time',
    eval_code: '{program} runs code assembled at run time',
    pipe_to_interpreter: 'pipes text into {program}, which runs it',
    dynamic_argument: 'an argument is computed at run time',
    cd_previous: 'cd - goes to a folder only known at run time',
    elevated: '{program} runs with elevated privileges',
    sensitive_write: 'writes a sensitive file: {path}',
    broad_write: 'changes a whole top-level folder: {path}',
    outside_read: 'reads outside the workspace: {path}',
    outside_destructive: 'deletes or changes outside the workspace: {path}',
    outside_write: 'writes outside the workspace: {path}',
    redirect_output: 'redirects output to {target}',
    protected_write: 'writes {path} in {entry}, which configures programs that run later',
    protected_git_dir:
      'writes {path} in {entry}, a git directory whose config and hooks can run programs later',
    protected_git_creation:
      'writes {path}, which would make {entry} a git directory whose config could run programs later',
    protected_git_reads: "writes {path} in {entry}, which git reads or runs through a repository's config",
    protected_config_unreadable: 'writes {path} in {entry}, a repository whose git config cannot be read',
    protected_link_target: 'writes {path}, which the protected entry {entry} links to',
    dynamic_tilde: '{word} names a folder only known at run time',
    unexpandable_word: '{word} expands to too many words or files to check',
    subshell: 'runs a subshell',
    command_substitution: 'uses command substitution',
    process_substitution: 'uses process substitution',
    shell_function: 'defines a shell function',
    coprocess: 'starts a coprocess',
    cwd_outside: 'runs outside the workspace',
    parse_error: 'the line does not parse cleanly: {message}',
    background: 'runs a command in the background',
    no_command: 'no command could be recognised',
    secret_variable: 'expands {name}, which looks like a secret',
    indirect_expansion: '{text} expands a variable chosen at run time',
    cdpath: 'sets CDPATH, so cd may go anywhere',
    command_may_change: 'the command may change things',
    outside_sandbox: 'asks to run outside the sandbox, with your access to files and the network',
    outside_workspace_read: 'Read access outside the workspace: {paths}',
    outside_workspace_write: 'Write access outside the workspace: {paths}',
    protected_path:
      'Changes a protected workspace entry (git, editor, direnv or DeepChat config can make programs run later): {paths}',
    app_data: "Touches DeepChat Desk's own data folder (database, logs, other chats): {paths}",
    secrets_file: "DeepChat Desk's secrets file, which no tool may read or change: {paths}",
    unresolvable_path:
      'Cannot tell where {paths} really leads ({error}), so it counts as outside the workspace',
    change_setting: 'Change setting {setting}: {summary}',
    mcp_call: 'Call MCP tool {tool} on server {server}',
    web_fetch_domain: 'Read a web page from {host}'
  },
  /** Joins several translated reasons in one line. */
  permissionReasonSeparator: '; '
}
