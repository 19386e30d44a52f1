// Inline approval cards on tool calls (#19).
export default {
  learnedRule: {
    title: 'A rule you could save',
    approvals: 'You allowed this kind of request {n} times.',
    question: 'Always allow {kind}',
    kinds: {
      exec: 'the commands',
      read: 'reading',
      write: 'writing',
      network: 'reading pages from',
      mcp: 'the MCP tool',
      settings: 'the setting'
    },
    replay:
      'It would have allowed {allowed} of the last {considered} requests in all chats. | It would have allowed {allowed} of the last {considered} requests in all chats, including {denied} you denied: | It would have allowed {allowed} of the last {considered} requests in all chats, including {denied} you denied:',
    untitled: 'untitled chat',
    save: 'Always allow',
    notNow: 'Not now',
    saved: 'Rule saved: requests like this are allowed without asking (Settings › Permissions lists it).'
  },
  approval: {
    dockLabel: 'Requests waiting for your answer',
    why: 'Why',
    waitingInChat:
      'A request in this chat waits for your answer: show it | {n} requests in this chat wait for your answer: show them',
    keys: 'Keys: Y allow once · S this chat · N deny',
    keysAlways: 'Keys: Y allow once · S this chat · A always · N deny',
    questionKeys: 'Keys: 1–9 choose · Esc skip',
    allowServerAlways: 'Always allow all tools of {server}',
    allowServerSession: 'Allow all tools of {server} in this chat',
    argsForm: 'As a form',
    argsRaw: 'Raw JSON',
    noArgs: 'No arguments.',
    previewAs: 'Show the change as',
    showDiff: 'Changes',
    showContent: 'New content',
    previewFailed: 'The current file could not be read: {error}',
    current: {
      missing: 'A new file: nothing is replaced.',
      hidden: 'The current file is not shown: it lies where the assistant may not read.',
      too_large: 'The current file is too large to compare ({size}); the new content is shown.',
      binary: 'The current file is binary ({size}); the new content is shown.',
      unreadable: 'The current file could not be read; the new content is shown.'
    },
    notifyTitle: 'A chat needs your answer',
    notifyBody: '“{title}” waits for your approval.'
  }
}
