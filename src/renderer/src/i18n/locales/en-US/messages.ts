// Rendering of messages, tool results, export / backup and history search (the messages area).
export default {
  chatExport: {
    menu: 'Export…',
    format: { markdown: 'Markdown (.md)', html: 'Web page (.html)', json: 'JSON, to import back (.json)' },
    importTitle: 'Import a chat',
    importHint: 'A chat exported as JSON comes back as a new chat with the same messages.',
    importButton: 'Choose a JSON export…'
  },
  toolResult: {
    image: 'Image from the tool',
    enlarge: 'Open the image at full size',
    bytes: '{n} bytes',
    showText: 'Show the text',
    structured: 'Structured result',
    unsupported: 'A {type} item that cannot be shown',
    openFailed: 'Could not open the link'
  },
  rich: {
    preview: 'Preview'
  }
}
