// Settings › Skills (#19).
export default {
  settingsSkills: {
    nav: 'Skills',
    title: 'Skills',
    subtitle: 'Instructions chats can load when a task needs them. A skill switched off is not offered.',
    folder: 'Absolute path of a skill folder (with a SKILL.md)',
    add: 'Add from folder',
    added: 'Added the skill {name}.',
    view: 'View',
    hide: 'Hide',
    enabled: 'Offer {name} to chats',
    sources: { builtin: 'built in', app: 'yours', workspace: 'workspace' }
  }
}
