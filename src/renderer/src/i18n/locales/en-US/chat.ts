export default {
  chat: {
    welcomeTitle: 'What can I help with?',
    welcomeBody: 'Chat with your models, use tools from MCP servers and let the agent work in your files.',
    noProvider: 'Add a model provider in Settings to start chatting.',
    openSettings: 'Open settings',
    messagesLabel: 'Conversation',
    generating: 'Generating…',
    waiting: 'Waiting for the model…',
    waitingFor: 'Waiting for the model… {seconds} s',
    waitingStop: 'Stop',
    waitingRetry: 'Stop and retry',
    jumpToLatest: 'Jump to latest',
    backToParent: 'Back to the main chat',
    cancel: 'Cancel',
    copyCode: 'Copy',
    copied: 'Copied',
    copyFailed: 'Copy failed',
    image: { alt: 'Image from the model', open: 'Open the image at full size' },
    dialogCounter: '{n} of {total}',
    status: { running: 'Running', error: 'Failed', cancelled: 'Cancelled', done: 'Done' },
    user: { edit: 'Edit', editLabel: 'Edit your message', resend: 'Send again' },
    toolbar: {
      copy: 'Copy',
      retry: 'Retry',
      fork: 'Fork from here',
      usage: '{input} in · {output} out tokens',
      delete: 'Delete',
      deleteLabel: 'Delete this message',
      deleteTurnLabel: 'Delete this message and its answer'
    },
    variants: {
      label: 'Variant {index} of {count}',
      previous: 'Previous variant',
      next: 'Next variant'
    },
    deleted: { message: 'Message deleted', messages: '{n} messages deleted', undo: 'Undo' },
    reasoning: { thinking: 'Thinking for {n}s…', thought: 'Thought for {n}s' },
    tool: { arguments: 'Arguments', result: 'Result' },
    toolsDeferred:
      'This chat has {total} MCP tools, more than the {limit} sent with each request: the model now finds the ones it needs with tool search.',
    plan: {
      title: 'Plan · {done}/{total} done',
      pending: 'pending',
      in_progress: 'in progress',
      completed: 'completed',
      ended: {
        aborted: 'The turn was stopped before the plan finished.',
        max_steps: 'The turn hit its step limit before the plan finished.',
        error: 'The turn failed before the plan finished.'
      }
    },
    subagent: {
      open: 'Open the subagent chat: {name}',
      tasks: 'Subagent tasks',
      status: {
        queued: 'Queued',
        running: 'Running',
        waiting_permission: 'Waiting for permission',
        waiting_question: 'Waiting for an answer',
        completed: 'Done',
        error: 'Failed',
        cancelled: 'Cancelled',
        timeout: 'Timed out'
      }
    },
    errors: {
      user_cancelled: 'Stopped',
      interrupted: 'Interrupted',
      provider_error: 'The provider returned an error',
      no_model_response: 'The model returned nothing',
      context_overflow: 'The conversation is too long for this model',
      tool_call_limit: 'Too many tool calls in one turn',
      repeated_tool_call: 'The model kept repeating the same tool call',
      internal: 'Something went wrong',
      unreadable_block: 'Part of this message could not be shown',
      storage: 'The app could not save to its data folder',
      /** Provider failures, by category: a title and what the user can do. */
      category: {
        rate_limited: 'The provider is rate-limiting requests',
        overloaded: 'The provider is overloaded',
        server: 'The provider had an internal error',
        auth: 'The provider rejected the API key',
        bad_request: 'The provider refused the request',
        context_too_long: 'The conversation is too long for this model',
        network: 'Could not reach the provider',
        timeout: 'The provider took too long to answer',
        no_response: 'The model sent nothing'
      },
      hint: {
        rate_limited: 'Wait a moment, then retry.',
        overloaded: 'Their servers are busy; retry in a little while.',
        server: 'This is on their side; retrying usually helps.',
        auth: 'Check the key in Settings.',
        bad_request: 'Their message:',
        context_too_long: 'Start a new chat, or pick a model with a longer context.',
        network: 'Check your connection or the provider address, then retry.',
        timeout: 'Retry; if it keeps happening, the model may be too slow or stuck.',
        no_response:
          'Nothing arrived within the provider’s idle timeout. Retry; for a slow local model, raise the timeout in the provider’s settings.'
      },
      openSettings: 'Open provider settings',
      stopped: 'Stopped',
      retrying: '{category} — retrying in {seconds} s (attempt {attempt} of {max})',
      retryingNow: '{category} — retrying now (attempt {attempt} of {max})'
    },
    action: {
      permission: {
        pending: 'Waiting for permission to run {tool}',
        allow_once: 'Allowed {tool} once',
        allow_session: 'Allowed {tool} for this chat',
        allow_always: 'Always allowed {tool}',
        allow_server_session: 'Allowed {tool} and every tool of its server for this chat',
        allow_server_always: 'Always allowed {tool} and every tool of its server',
        deny: 'Denied {tool}'
      },
      question: {
        pending: 'Asked: {question}',
        answered: 'Asked: {question} — answered: {answer}',
        skipped: 'Asked: {question} — skipped'
      }
    },
    input: {
      label: 'Message',
      placeholder: 'Ask anything — Enter to send, Shift+Enter for a new line',
      blockedPlaceholder: 'Answer the open request first',
      send: 'Send',
      stop: 'Stop',
      model: 'Model',
      pickModel: 'Choose a model',
      noModels: 'No models',
      permissionMode: 'Permission mode',
      workspace: 'Workspace folder',
      workspacePlaceholder: 'Scratch folder — or type an absolute path',
      scratch: 'Scratch',
      scratchHint: 'This chat works in its own scratch folder: {path}',
      tools: 'Tools',
      toolsScope: 'No chat yet: these switches change the defaults of every chat, app-wide.',
      toolsTitleApp: 'Tools for all chats (defaults)',
      toolsTitleSession: 'Tools for this chat',
      toolsBadgeApp: 'all chats',
      toolsBadgeSession: 'this chat',
      agentTools: 'Built-in tools',
      mcpServers: 'MCP servers',
      noMcpServers: 'No MCP servers configured.',
      fullAccessWarning: 'Full access: the agent runs commands and edits files anywhere without asking.',
      fullAccessConfirmTitle: 'Give this chat full access?',
      fullAccessConfirmBody:
        'From its next request on, the agent in this chat runs commands and edits files anywhere without asking you.',
      fullAccessConfirm: 'Allow full access',
      chooseFolder: 'Choose folder…',
      chooseFolderTitle: 'Workspace folder for this chat',
      toolsScopeSession: 'Switches for this chat only. They apply from its next request.',
      offeredCount: 'The model gets 1 tool in this chat. | The model gets {n} tools in this chat.',
      offeredDeferred: '{n} MCP tools are too many to send: the model finds them with tool_search.',
      serverToolCount: '1 tool | {n} tools',
      toolGroups: {
        'agent-filesystem': 'Files and commands',
        'agent-core': 'Agent',
        'agent-tape': 'Session history',
        'agent-skills': 'Skills',
        'agent-memory': 'Memory',
        'deepchat-settings': 'Chat settings',
        'agent-image-generation': 'Image generation',
        'agent-subagents': 'Subagents',
        'agent-web': 'Web search',
        'agent-knowledge': 'Knowledge bases'
      },
      mcpState: { starting: 'Starting', running: 'Running', error: 'Error', stopped: 'Stopped' },
      /** Why the model does not get a tool or server that is switched on. */
      notOffered: {
        unavailable: 'Not available in this chat',
        perChatOnly: 'Off in new chats: switch it on in a chat',
        serverOff: 'Off in Settings › MCP',
        notRunning: 'No tools until it runs'
      },
      settingsErrors: {
        invalid_folder: 'That folder cannot be used: enter the absolute path of an existing folder.',
        path_not_picked: 'Choose that folder again: only a folder picked here can be used.',
        pick_expired: 'That folder choice has expired or was already used: choose the folder again.',
        path_changed: 'The folder changed after it was chosen: choose it again.',
        invalid_workspace: 'That folder cannot be used: enter the absolute path of an existing folder.',
        invalid_model:
          'That model is not available. Enable it in Settings › Model providers or pick another.',
        invalid_permission_mode: 'A subagent chat cannot have more access than its parent chat.'
      }
    },
    permissionMode: {
      default: 'Ask before acting',
      accept_edits: 'Accept edits',
      sandboxed: 'Auto in sandbox',
      full_access: 'Full access'
    },
    risk: { low: 'Low risk', medium: 'Medium risk', high: 'High risk', critical: 'Critical risk' },
    permission: {
      title: 'Permission required',
      fromSubagent: 'Requested by subagent {name}',
      tool: 'Tool',
      server: 'Server',
      risk: 'Risk',
      command: 'Command',
      cwd: 'in {cwd}',
      outside: 'outside the workspace: {path}',
      paths: 'Files',
      alwaysRule: '“Always allow” saves the rule {kind}: {pattern}',
      runsOnHost:
        'If you allow it, it runs outside the sandbox, with your own access to files and the network.',
      criticalNoAlways: 'Critical: this can only be allowed once or for this chat, never always.',
      unreadable: 'This request could not be read.',
      deny: 'Deny',
      allowOnce: 'Allow once',
      allowSession: 'Allow for this chat',
      allowAlways: 'Always allow'
    },
    question: {
      title: 'Question',
      options: 'Options',
      custom: 'Your own answer',
      skip: 'Skip',
      submit: 'Answer'
    },
    elicitation: {
      title: '{server} asks for information',
      accept: 'Submit',
      decline: 'Decline'
    },
    sampling: {
      title: '{server} asks to use a model',
      systemPrompt: 'System prompt',
      role: { user: 'User', assistant: 'Assistant' },
      maxTokens: 'Answer up to {n} tokens',
      respondWith: 'Answer with',
      reject: 'Reject',
      approve: 'Run and send'
    },
    queue: { label: 'Queued messages', queued: 'Queued', withNext: 'Goes out with your next message' },
    sidebar: {
      search: 'Search all chats',
      searchPlaceholder: 'Search history…',
      noHits: 'Nothing found',
      clearSearch: 'Clear search',
      rename: 'Rename',
      renameLabel: 'New title',
      pin: 'Pin',
      unpin: 'Unpin',
      delete: 'Delete',
      deleteTitle: 'Delete this chat?',
      deleteBody: '“{title}” and its subagent chats will be deleted for good.',
      generating: 'Working',
      waiting: 'Waiting for you',
      groups: {
        pinned: 'Pinned',
        today: 'Today',
        yesterday: 'Yesterday',
        week: 'Previous 7 days',
        older: 'Older',
        all: 'Chats'
      },
      sortLabel: 'Sort chats',
      sort: { activity: 'Recent activity', created: 'Date created', title: 'Title' }
    }
  }
}
