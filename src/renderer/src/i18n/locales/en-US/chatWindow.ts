/** The chat window's everyday tools: find in chat. */
export default {
  chatFind: {
    label: 'Find in chat',
    placeholder: 'Find in this chat',
    count: '{n} of {m}',
    countCapped: '{n} of {m}+',
    none: 'No results',
    searching: 'Searching…',
    previous: 'Previous match (Shift+Enter)',
    next: 'Next match (Enter)',
    close: 'Close (Esc)'
  }
}
