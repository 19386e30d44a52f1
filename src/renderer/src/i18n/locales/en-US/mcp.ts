export default {
  settingsMcp: {
    /** Built-in servers' descriptions as shipped (inMemoryServers/index.ts), by server id. */
    shippedDescriptions: {
      'deepchat-time': 'Current time and time-zone conversion',
      'deepchat-history': 'Search the messages of past conversations'
    },
    nav: 'MCP servers',
    title: 'MCP servers',
    subtitle: 'Servers that give the agent extra tools, prompts and resources.',
    toolSearch: {
      label: 'Tool search above',
      hint: 'With more MCP tools than this in a chat, the model finds the ones it needs with tool search instead of getting all of them.',
      save: 'Save',
      saved: 'Saved: applies from the next request.'
    },
    add: 'Add server',
    search: 'Search servers',
    filterLabel: 'Show servers',
    filterAll: 'All',
    counts: '{total} servers · {running} running · {error} with errors',
    empty: 'No MCP server yet. Add one, or import the JSON from another app.',
    noMatch: 'No server matches.',
    states: { starting: 'Starting', running: 'Running', error: 'Error', stopped: 'Stopped' },
    reconnecting: 'reconnect attempt {n}',
    types: {
      stdio: 'Local command (stdio)',
      http: 'Streamable HTTP',
      sse: 'Server-sent events (SSE)',
      inmemory: 'Built-in'
    },
    enableNamed: 'Enable {name}',
    noDescription: 'No description.',
    skippedTools:
      '1 tool left out: its definition is broken | {n} tools left out: their definitions are broken',
    details: 'Tools & details',
    restart: 'Restart',
    edit: 'Edit',
    remove: 'Remove',
    removeTitle: 'Remove server',
    removeConfirm: 'Remove the server “{name}”? Its stored secrets are deleted too.',
    notRunning: 'The server is not running, so its tools, prompts and resources cannot be listed.',
    panelTabs: 'Server details',
    tabs: { tools: 'Tools', prompts: 'Prompts', resources: 'Resources', logs: 'Error output' },
    logs: {
      empty: 'The server wrote nothing to its error output.',
      label: 'Last lines of the server’s error output'
    },
    oauth: {
      label: 'OAuth',
      signedIn: 'Signed in',
      signedOut: 'Not signed in',
      signIn: 'Sign in',
      signOut: 'Sign out',
      hint: 'Signing in connects to the server and opens its sign-in page in your browser.'
    },
    form: {
      addTitle: 'Add an MCP server',
      editTitle: 'Edit {name}',
      name: 'Name',
      icon: 'Icon',
      type: 'Type',
      description: 'Description',
      command: 'Command',
      args: 'Arguments',
      argsHint: 'One argument per line.',
      cwd: 'Working folder (optional)',
      env: 'Environment variables',
      envHint:
        'Besides these, the server gets only PATH from your login shell and a small set of your environment (home, language, toolchain folders, and the names allowed in Settings › Permissions); $NAME expands against that set only.',
      url: 'URL',
      headers: 'Request headers',
      timeout: 'Request timeout (seconds)',
      timeoutInvalid: 'The timeout must be at least 1 second.',
      enabled: 'Enabled',
      secretsHint:
        'Values are stored in the system’s secret store when they look like keys or tokens, and are shown masked afterwards.',
      addRow: 'Add',
      removeRow: 'Remove row {n}',
      rowName: '{field}: name {n}',
      rowValue: '{field}: value {n}',
      show: 'Show',
      hide: 'Hide',
      showRow: 'Show value {n}',
      hideRow: 'Hide value {n}',
      stored: 'Stored',
      valuePlaceholder: 'value',
      slug: 'Short name',
      slugHint:
        'Letters and digits joined by single “-” or “_”. The model sees this server’s tools as {example}; left empty, it is made from the server’s id.',
      slugWarning:
        'Changing it renames every tool of this server that the model sees. Chats under way keep working.'
    },
    import: {
      open: 'Import JSON',
      title: 'Import servers from JSON',
      label: 'Server configuration',
      hint: 'Paste an “mcpServers” object as used by Claude Desktop and other apps; every server in it is added.',
      submit: 'Import',
      imported: 'No server imported. | 1 server imported. | {n} servers imported.',
      skipped: 'Skipped “{name}”: {reason}'
    },
    export: {
      open: 'Export JSON',
      title: 'Export servers',
      label: 'Configuration (secrets masked)',
      copy: 'Copy',
      copied: 'Copied to the clipboard.',
      copyFailed: 'Could not copy; select the text and copy it by hand.'
    },
    tools: {
      exposedAs: 'Model sees it as',
      nameFlags: {
        invalid_chars: 'Characters the model’s API refuses were replaced.',
        shortened: 'Cut to 64 characters.',
        deduplicated: 'Made unique with a suffix.'
      },
      filter: 'Filter tools',
      none: 'This server offers no tools.',
      enabled: 'On',
      autoApprove: 'Auto-approve',
      enableNamed: 'Enable the tool {name}',
      autoApproveNamed: 'Run {name} without asking',
      readOnly: 'Read-only',
      destructive: 'Destructive',
      try: 'Try it',
      hideTry: 'Hide',
      noParams: 'This tool takes no parameters.',
      required: 'required',
      errors: {
        required: 'Required.',
        number: 'Enter a number.',
        integer: 'Enter a whole number.',
        json: 'Enter valid JSON.'
      },
      run: 'Run',
      running: 'Running…',
      needsApproval: 'This call needs your approval, as it would in a chat.',
      allowAlways: 'Always allow {pattern} and run',
      allowOnce: 'Allow once and run',
      resultError: 'The tool reported an error.',
      emptyResult: 'The tool returned nothing.',
      imageAlt: 'Image {n} returned by the tool',
      audio: 'Audio ({mime})',
      structured: 'Structured result'
    },
    prompts: {
      none: 'This server offers no prompts.',
      get: 'Get prompt',
      roles: { user: 'User', assistant: 'Assistant' }
    },
    resources: {
      none: 'This server offers no resources.',
      templates: 'Templates',
      pick: 'Pick a resource to read it.',
      binary: 'Binary content, {n} bytes.'
    }
  }
}
