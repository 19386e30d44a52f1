// Rendering of messages, tool results, export / backup and history search (the messages area).
export default {
  rich: {
    preview: 'Preview'
  }
}
