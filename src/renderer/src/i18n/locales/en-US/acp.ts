export default {
  acpChat: {
    bar: 'Agent session',
    mode: 'Mode',
    model: 'Agent model',
    commands: 'Commands',
    commandsHint: 'Slash commands {name} offers: pick one to start your message with it.',
    notStarted: '{name} shows its modes, models and commands after the first message.',
    tool: {
      details: 'What {name} did',
      kinds: {
        read: 'Read',
        edit: 'Edit',
        delete: 'Delete',
        move: 'Move',
        search: 'Search',
        execute: 'Run',
        think: 'Think',
        fetch: 'Fetch',
        switch_mode: 'Switch mode',
        other: 'Tool'
      },
      locations: 'Files',
      terminal: 'Terminal',
      sandboxed: 'ran in the sandbox',
      onHost: 'ran as approved',
      exit: 'exit {code}',
      truncated: 'output cut',
      newFile: 'new file'
    }
  },
  modelPicker: { agents: 'Agents' }
}
