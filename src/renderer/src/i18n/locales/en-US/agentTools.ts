export default {
  settingsAgentTools: {
    nav: 'Agent tools',
    title: 'Agent tools',
    subtitle: 'The built-in tools the agent can use in new chats.',
    saved: 'Saved',
    readOnly: 'Read-only',
    changesThings: 'Makes changes',
    enableNamed: 'Enable {name}',
    servers: {
      filesystem: 'Files and commands',
      core: 'Agent',
      tape: 'Conversation history',
      memory: 'Memory',
      skills: 'Skills',
      deepchat_settings: 'Chat settings',
      image_generation: 'Images',
      subagents: 'Subagents'
    },
    descriptions: {
      read: 'Read a file, or part of it.',
      write: 'Create or overwrite a file.',
      edit: 'Replace text inside a file.',
      glob: 'Find files by name pattern.',
      grep: 'Search file contents (ripgrep).',
      exec: 'Run a shell command.',
      process: 'Watch or stop background commands.',
      deepchat_question: 'Ask you a multiple-choice question.',
      update_plan: 'Show and update a step-by-step plan.',
      tape_search: 'Search this chat’s history.',
      tape_context: 'Read history entries in full, with their neighbours.',
      tape_info: 'Show the size of this chat’s history.',
      tape_anchors: 'List the newest anchors in this chat’s history.',
      memory_remember: 'Remember something for later chats.',
      memory_recall: 'Look up what was remembered earlier.',
      memory_forget: 'Forget one remembered item.',
      skill_list: 'List the skills the agent can use.',
      skill_view: 'Read a skill.',
      deepchat_settings_read: 'Read this chat’s settings.',
      deepchat_settings_set_model: 'Switch this chat to another model.',
      deepchat_settings_set_temperature: 'Set this chat’s temperature.',
      deepchat_settings_set_system_prompt: 'Replace this chat’s system prompt.',
      deepchat_settings_set_permission_mode: 'Narrow this chat’s permission mode.',
      deepchat_settings_set_tools: 'Switch built-in tools on or off for this chat.',
      image_generate: 'Generate an image from a text prompt.',
      subagent_orchestrator: 'Hand work to subagents in child chats.'
    }
  }
}
