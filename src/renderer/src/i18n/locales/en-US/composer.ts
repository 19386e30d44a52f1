/** The composer: attachments, `/` and `@` menus, chat parameters, assistants, prompts, shortcuts. */
export default {
  composer: {
    attach: 'Attach files',
    attachHint: 'Images, PDF, Word, Excel, CSV, text and code — or paste or drop them here',
    dropHere: 'Drop files to attach them',
    remove: 'Remove {name}',
    uploading: 'Uploading {name}',
    kinds: {
      image: 'Image',
      pdf: 'PDF',
      docx: 'Word',
      spreadsheet: 'Excel',
      csv: 'CSV',
      text: 'Text'
    },
    noVision:
      '{model} cannot see images: the attached images will not be sent to it. Pick a model with vision to include them.',
    refusals: {
      tooMany: 'At most {max} files per message.',
      tooLarge: '{name} is {size} MB; the limit is {limit} MB.',
      imageTooLarge: '{name} is {size} MB; the limit for images is {limit} MB.',
      empty: '{name} is empty.'
    },
    waitForUploads: 'Wait for the attachments to finish uploading',
    offline: 'Disconnected — your message stays here; send it once the app is back.',
    offlineButton: 'Offline',
    slash: {
      label: 'Prompts',
      saved: 'Saved prompts',
      mcp: 'MCP prompts',
      empty: 'No prompt matches. Save prompts in Settings › Prompts.'
    },
    mention: {
      label: 'MCP resources',
      resources: 'Resources',
      templates: 'Resource templates',
      empty: 'No MCP resource matches.'
    },
    fields: {
      promptTitle: 'Fill in “{name}”',
      templateTitle: 'Open “{name}”',
      insert: 'Insert',
      attach: 'Attach',
      required: 'Required'
    },
    params: {
      button: 'Parameters',
      title: 'Instructions and parameters',
      scopeChat: 'For this chat; they apply from its next request.',
      scopeNew: 'For the new chat.',
      systemPrompt: 'System prompt',
      systemPromptPlaceholder: 'How the model should behave in this chat',
      temperature: 'Temperature',
      topP: 'Top-p',
      maxTokens: 'Max output tokens',
      reasoningEffort: 'Reasoning effort',
      modelDefault: 'Model default',
      efforts: { minimal: 'Minimal', low: 'Low', medium: 'Medium', high: 'High' },
      save: 'Apply',
      reset: 'Reset all',
      saved: 'Applied'
    },
    assistant: {
      label: 'Assistant',
      none: 'No assistant'
    },
    shortcuts: {
      title: 'Keyboard shortcuts',
      newChat: 'New chat',
      search: 'Search chats',
      settings: 'Settings',
      stop: 'Stop generating',
      editLastMessage: 'Edit your last message (in an empty composer)',
      findInChat: 'Find in this chat',
      copyLastAnswer: 'Copy the last answer',
      focusComposer: 'Focus the composer',
      showShortcuts: 'Show keyboard shortcuts'
    }
  },
  settingsLibrary: {
    promptsNav: 'Prompts',
    assistantsNav: 'Assistants',
    prompts: {
      title: 'Prompts',
      intro:
        "Saved prompts are inserted with / in the composer. Write {'{{'}name{'}}'} for a value asked when inserting.",
      add: 'New prompt',
      name: 'Name (what / matches)',
      description: 'Description',
      body: 'Prompt',
      variables: 'Variables: {list}',
      empty: 'No saved prompts yet.',
      save: 'Save',
      cancel: 'Cancel',
      edit: 'Edit',
      delete: 'Delete',
      saved: 'Saved'
    },
    assistants: {
      title: 'Assistants',
      intro:
        'An assistant is a named system prompt, model, parameters and tool set you can start a chat with.',
      defaultsTitle: 'Defaults for new chats',
      defaultsIntro: 'New chats without an assistant start with these instructions and parameters.',
      add: 'New assistant',
      name: 'Name',
      description: 'Description',
      systemPrompt: 'System prompt',
      model: 'Model',
      anyModel: 'The chat’s own choice',
      disabledTools: 'Built-in tools switched off',
      disabledMcpServers: 'MCP servers switched off',
      empty: 'No assistants yet.',
      save: 'Save',
      cancel: 'Cancel',
      edit: 'Edit',
      delete: 'Delete',
      saved: 'Saved'
    }
  }
}
