// Settings › Network and Settings › Web search (#31): loaded with the settings pages.
export default {
  settingsNetwork: {
    nav: 'Network',
    title: 'Network',
    subtitle:
      'How the app reaches the internet: model providers, model lists, MCP servers over HTTP, sign-ins, web search and page reads. MCP servers and agents started by the app get the same proxy.',
    mode: 'Proxy',
    modes: {
      system: 'System (HTTP_PROXY / HTTPS_PROXY / NO_PROXY of the app’s environment)',
      none: 'None: connect directly',
      custom: 'Custom proxy'
    },
    protocol: 'Type',
    host: 'Host',
    port: 'Port',
    username: 'User name (optional)',
    password: 'Password',
    passwordStored: 'A password is stored. Type a new one to replace it.',
    clearPassword: 'Remove the password',
    bypass: 'Bypass list',
    bypassHint:
      'One per line: a host (example.com also covers its subdomains), *.example.com, an IP address, a range such as 10.0.0.0/8, or <local> for names without a dot.',
    save: 'Save',
    saved: 'Network settings saved.',
    test: 'Test',
    testUrl: 'Test address',
    testOk: 'Connected: HTTP {status} in {ms} ms.',
    testFailed: 'Failed: {message}'
  },
  settingsWebSearch: {
    nav: 'Web search',
    title: 'Web search',
    subtitle:
      'The engine the web_search tool uses, and what web_fetch may read. Keys are kept in the app’s secret store.',
    mode: 'How chats search the web',
    modeHint:
      'A chat may choose its own in the Tools menu. The provider’s own search (OpenAI, Gemini, Anthropic, OpenRouter) is used only for models that have it; other models use the engine below. Off: the model gets no web search.',
    engine: 'Search engine',
    engines: {
      tavily: 'Tavily',
      brave: 'Brave Search',
      serpapi: 'SerpAPI (Google)',
      exa: 'Exa',
      jina: 'Jina',
      searxng: 'SearXNG (your own server)'
    },
    key: 'API key',
    keyStored: 'A key is stored. Type a new one to replace it.',
    removeKey: 'Remove the key',
    endpoint: 'Address',
    endpointHint: 'Leave empty for the service’s own address; set it for a gateway.',
    searxngHint: 'Your SearXNG server, for example http://localhost:8888 (its JSON format must be enabled).',
    maxResults: 'Results per search',
    allowPrivate: 'Let web_fetch read pages on this computer and the local network',
    allowPrivateHint:
      'Off: addresses such as localhost, 192.168.x.x or 169.254.169.254 are refused, whatever a page or the model asks.',
    save: 'Save',
    saved: 'Web search settings saved.'
  }
}
