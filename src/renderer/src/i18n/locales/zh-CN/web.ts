import type en from '../en-US/web'

// 设置 › 网络 与 设置 › 网络搜索（#31），以及 web_search 的来源区块。
export default {
  webSearchMode: {
    title: '网络搜索',
    options: {
      app: '应用的搜索引擎（设置 › 网络搜索）',
      provider: '模型服务商自带的搜索',
      off: '关闭'
    },
    fallback: '此模型的服务商没有自带搜索：将使用应用的搜索引擎。',
    noNative: 'OpenAI、Gemini、Anthropic 和 OpenRouter 中支持搜索的模型可使用服务商自带的搜索。'
  },
  webSources: {
    title: '来源'
  }
} satisfies typeof en
