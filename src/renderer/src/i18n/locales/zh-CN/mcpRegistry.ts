export default {
  mcpRegistry: {
    open: '浏览注册表',
    title: 'MCP 注册表',
    official: '官方 MCP 注册表',
    custom: '注册表：{url}',
    change: '更换注册表',
    urlLabel: '注册表地址（https）',
    urlHint: '官方注册表，或贵公司使用相同 API 的自建注册表。留空即使用官方注册表。',
    save: '保存',
    cancel: '取消',
    search: '搜索服务器',
    loading: '加载中…',
    empty: '没有找到服务器。',
    more: '加载更多',
    cached: '缓存于 {time}：无法连接注册表。',
    refused: '{n} 个条目未通过应用的检查',
    publisher: '发布者',
    version: '版本',
    source: '源代码',
    website: '网站',
    published: '发布于 {date}',
    status: {
      active: '官方：有效',
      deprecated: '官方：已弃用',
      deleted: '官方：已删除'
    },
    installed: '已安装',
    installedAs: '已安装为 {id}',
    back: '返回列表',
    packages: '软件包',
    remotes: '远程服务器',
    runs: '运行',
    connects: '连接到',
    from: '来自 {url}',
    install: '安装',
    installThis: '安装 {what}',
    nothing: '无可安装内容：此服务器没有任何软件包或远程服务器通过应用的检查。',
    leftOut: '未通过应用检查而被略去',
    runtimeMissing: {
      npx: '未安装 Node.js（npx）：请安装 Node.js 以运行 npm 软件包。',
      uvx: '未安装 uv（uvx）：请安装 uv 以运行 PyPI 软件包。',
      docker: '未安装 Docker：请安装 Docker 以运行容器镜像。'
    },
    openFailed: '无法打开链接',
    form: {
      title: '安装 {name}',
      none: '此服务器无需填写任何值。',
      required: '必填',
      secret: '保存在密钥存储中，之后不再显示。',
      show: '显示',
      hide: '隐藏',
      choose: '请选择…',
      kinds: { env: '环境变量', header: '请求头', arg: '参数' },
      submit: '安装',
      done: '已安装为 {name}，正在启动。'
    }
  }
}
