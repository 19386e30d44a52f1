export default {
  settingsAgentTools: {
    nav: 'Agent tools',
    title: 'Agent tools',
    subtitle: 'The built-in tools the agent can use in new chats, and the folder it works in.',
    folder: 'Default workspace folder',
    folderHint: 'New chats start in this folder. Use an absolute path to an existing folder.',
    folderPlaceholder: '/home/me/projects',
    clear: 'Clear',
    folderSaved: 'Workspace folder saved.',
    folderCleared: 'Workspace folder cleared.',
    saved: 'Saved',
    readOnly: 'Read-only',
    changesThings: 'Makes changes',
    enableNamed: 'Enable {name}',
    servers: { filesystem: 'Files and commands', core: 'Agent' },
    descriptions: {
      read: 'Read a file, or part of it.',
      write: 'Create or overwrite a file.',
      edit: 'Replace text inside a file.',
      glob: 'Find files by name pattern.',
      grep: 'Search file contents (ripgrep).',
      exec: 'Run a shell command.',
      process: 'Watch or stop background commands.',
      deepchat_question: 'Ask you a multiple-choice question.',
      update_plan: 'Show and update a step-by-step plan.'
    }
  }
}
