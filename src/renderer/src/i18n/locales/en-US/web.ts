// Settings › Network and Settings › Web search (#31), and the sources block of web_search.
export default {
  webSearchMode: {
    title: 'Web search',
    options: {
      app: 'The app’s search engine (Settings › Web search)',
      provider: 'The model provider’s own search',
      off: 'Off'
    },
    fallback: 'This model’s provider has no search of its own: the app’s engine is used.',
    noNative:
      'The provider’s own search is offered for OpenAI, Gemini, Anthropic and OpenRouter models that have it.'
  },
  webSources: {
    title: 'Sources'
  }
}
