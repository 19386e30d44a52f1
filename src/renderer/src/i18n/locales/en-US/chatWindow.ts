/** The chat window's everyday tools: find in chat, confirmations. */
export default {
  turnRevert: {
    confirm:
      'Put the file this turn changed back as it was before? | Put the {n} files this turn changed back as they were before?',
    revert: 'Revert'
  },
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
