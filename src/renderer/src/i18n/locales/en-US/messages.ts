// Rendering of messages, tool results, export / backup and history search (the messages area).
export default {
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
