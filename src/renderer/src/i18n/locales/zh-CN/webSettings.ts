// 设置 › 网络 与 设置 › 网络搜索（#31）：随设置页加载。
export default {
  settingsNetwork: {
    nav: '网络',
    title: '网络',
    subtitle:
      '应用如何访问互联网：模型服务商、模型列表、HTTP 方式的 MCP 服务器、登录、网络搜索和网页读取。应用启动的 MCP 服务器和智能体也使用同一代理。',
    mode: '代理',
    modes: {
      system: '系统（应用环境中的 HTTP_PROXY / HTTPS_PROXY / NO_PROXY）',
      none: '不使用：直接连接',
      custom: '自定义代理'
    },
    protocol: '类型',
    host: '主机',
    port: '端口',
    username: '用户名（可选）',
    password: '密码',
    passwordStored: '已保存密码。输入新密码可替换。',
    clearPassword: '删除密码',
    bypass: '不走代理的地址',
    bypassHint:
      '每行一个：主机名（example.com 也包括其子域名）、*.example.com、IP 地址、网段如 10.0.0.0/8，或 <local> 表示不含点的名称。',
    save: '保存',
    saved: '网络设置已保存。',
    test: '测试',
    testUrl: '测试地址',
    testOk: '已连接：HTTP {status}，用时 {ms} 毫秒。',
    testFailed: '失败：{message}'
  },
  settingsWebSearch: {
    nav: '网络搜索',
    title: '网络搜索',
    subtitle: 'web_search 工具使用的搜索引擎，以及 web_fetch 可以读取的内容。密钥保存在应用的密钥存储中。',
    mode: '对话如何搜索网络',
    modeHint:
      '每个对话可在“工具”菜单中单独选择。服务商自带的搜索（OpenAI、Gemini、Anthropic、OpenRouter）仅用于支持它的模型，其他模型使用下方的搜索引擎。关闭：模型不能搜索网络。',
    engine: '搜索引擎',
    engines: {
      tavily: 'Tavily 搜索',
      brave: 'Brave 搜索',
      serpapi: 'SerpAPI（谷歌）',
      exa: 'Exa 搜索',
      jina: 'Jina 搜索',
      searxng: 'SearXNG（自建服务器）'
    },
    key: 'API 密钥',
    keyStored: '已保存密钥。输入新密钥可替换。',
    removeKey: '删除密钥',
    endpoint: '地址',
    endpointHint: '留空则使用服务自身的地址；使用网关时填写。',
    searxngHint: '你的 SearXNG 服务器，例如 http://localhost:8888（需启用其 JSON 格式）。',
    maxResults: '每次搜索的结果数',
    allowPrivate: '允许 web_fetch 读取本机和局域网中的网页',
    allowPrivateHint:
      '关闭时，无论网页或模型如何要求，localhost、192.168.x.x、169.254.169.254 等地址都会被拒绝。',
    save: '保存',
    saved: '网络搜索设置已保存。'
  }
}
