// Settings › Memory (#19).
export default {
  settingsMemory: {
    nav: 'Memory',
    title: 'Memory',
    subtitle: 'What the assistant remembers across chats. It recalls these by their words.',
    enabled: 'Use memory',
    search: 'Search memories',
    searchButton: 'Search',
    empty: 'Nothing remembered yet.',
    noHits: 'No memory matches.',
    edit: 'Edit',
    save: 'Save',
    delete: 'Delete',
    saved: 'Memory saved.',
    kinds: { semantic: 'Fact', episodic: 'Event' }
  }
}
