// Settings › Agents: loaded with the settings pages.
export default {
  settingsAgents: {
    /** Registry agents' descriptions as shipped (resources/acp-registry.json), by agent id. */
    shippedDescriptions: {
      'claude-acp': "Anthropic's Claude Code through its ACP adapter.",
      'codex-acp': "OpenAI's Codex CLI through its ACP adapter.",
      gemini: "Google's Gemini CLI in ACP mode.",
      'qwen-code': 'Qwen Code in ACP mode.',
      'github-copilot-cli': "GitHub Copilot's CLI in ACP mode.",
      cline: "Cline's CLI in ACP mode.",
      auggie: "Augment Code's CLI in ACP mode.",
      qoder: "Qoder's CLI in ACP mode.",
      dimcode: 'DimCode in ACP mode.',
      kilo: "Kilo Code's CLI in ACP mode.",
      'factory-droid': "Factory's Droid as an ACP daemon.",
      grok: "xAI's Grok agent over stdio.",
      'pi-acp': 'The Pi coding agent through its ACP adapter.',
      'deepagents-acp': 'LangChain Deep Agents over ACP.',
      'glm-acp-agent': 'A GLM coding agent over ACP.',
      nova: 'Compass Nova in ACP mode.',
      dirac: "Dirac's CLI in ACP mode.",
      'fast-agent': 'fast-agent over ACP (Python, through uvx).',
      'minion-code': 'Minion Code in ACP mode (Python, through uvx).',
      opencode: 'OpenCode in ACP mode (install it first).',
      goose: "Block's Goose in ACP mode (install it first).",
      kimi: "Moonshot's Kimi CLI in ACP mode (install it first).",
      cursor: "Cursor's agent CLI in ACP mode (install it first).",
      devin: "Devin's CLI in ACP mode (install it first).",
      vtcode: 'VT Code in ACP mode (install it first).'
    },
    nav: 'Agents',
    title: 'Agents',
    subtitle:
      'External coding agents (ACP) you can pick as a chat’s model or hand subagent tasks to. Their file, command and tool requests go through your permissions.',
    add: 'Add agent',
    empty: 'No agent yet.',
    enableNamed: 'Enable {name}',
    sources: { registry: 'Built in', custom: 'Custom' },
    install: {
      installed: 'Installed',
      on_demand: 'Downloads at first start',
      missing: 'Not found',
      checking: 'Checking…',
      recheck: 'Check again'
    },
    running: 'Running in {count} folder(s)',
    idle: 'Not running',
    lastError: 'Last error',
    stderr: 'Error output',
    env: 'Environment',
    log: 'Protocol log',
    stop: 'Stop',
    edit: 'Edit',
    remove: 'Remove',
    removeTitle: 'Remove agent',
    removeConfirm: 'Remove the agent “{name}”? Its stored secrets and its chats’ sessions are forgotten.',
    form: {
      addTitle: 'Add an agent',
      editTitle: 'Edit {name}',
      name: 'Name',
      description: 'Description',
      command: 'Command',
      args: 'Arguments',
      argsHint:
        "One argument per line. Anything that speaks ACP over stdio works, e.g. npx with -y and {'@'}zed-industries/claude-code-acp.",
      env: 'Environment variables',
      keyPlaceholder: 'NAME'
    },
    envDialog: {
      title: 'Environment of {name}',
      hint: 'Set on top of the agent’s own environment. Values whose names look like secrets are kept in secret storage and shown masked.',
      label: 'Overrides',
      saved: 'Saved. The agent restarts with these at its next message.'
    },
    logDialog: {
      title: 'Protocol log of {name}',
      hint: 'The last messages between the app and the agent, secrets redacted. New ones appear as they happen.',
      empty: 'Nothing yet. The log fills when the agent runs.',
      directions: { out: 'sent', in: 'received' }
    }
  }
}
