export default {
  settingsPermissions: {
    nav: 'Permissions',
    title: 'Permissions',
    subtitle: 'What the agent may do without asking, and the decisions you asked it to remember.',
    defaultMode: 'Default mode for new chats',
    defaultModeHint: 'Each chat can still change its own mode.',
    modes: {
      default: { label: 'Ask', hint: 'Ask before writing files, running commands or calling tools that change things.' },
      accept_edits: { label: 'Accept edits', hint: 'Edit files in the workspace without asking; still ask for commands and tools.' },
      full_access: { label: 'Full access', hint: 'Never ask. Deny rules still apply. Use only in folders you can afford to lose.' }
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
    kinds: { read: 'Read files', write: 'Write files', exec: 'Run commands', mcp: 'MCP tool', settings: 'Settings tool' },
    patternExamples: { read: '~/notes/**', write: '~/projects/app/**', exec: 'npm test*', mcp: 'github/*', settings: 'tool name' },
    revoke: 'Revoke',
    revokeNamed: 'Revoke the rule {pattern}',
    revoked: 'The rule was revoked.',
    addRule: 'Add rule',
    added: 'The rule was added.'
  }
}
