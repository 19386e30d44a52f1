import type en from '../en-US/mcp'

export default {
  settingsMcp: {
    shippedDescriptions: {
      'deepchat-time': '当前时间与时区换算',
      'deepchat-history': '搜索过往对话中的消息'
    },
    nav: 'MCP 服务器',
    title: 'MCP 服务器',
    subtitle: '为智能体提供额外工具、提示词和资源的服务器。',
    toolSearch: {
      label: '工具搜索阈值',
      hint: '对话中的 MCP 工具多于此数时，模型通过工具搜索查找所需工具，而不是一次获得全部工具。',
      save: '保存',
      saved: '已保存：从下一次请求起生效。'
    },
    add: '添加服务器',
    search: '搜索服务器',
    filterLabel: '显示服务器',
    filterAll: '全部',
    counts: '共 {total} 个服务器 · {running} 个运行中 · {error} 个出错',
    empty: '还没有 MCP 服务器。添加一个，或从其他应用导入 JSON。',
    noMatch: '没有匹配的服务器。',
    states: { starting: '启动中', running: '运行中', error: '出错', stopped: '已停止' },
    reconnecting: '第 {n} 次重连',
    types: {
      stdio: '本地命令（stdio）',
      http: '可流式 HTTP',
      sse: '服务器推送事件（SSE）',
      inmemory: '内置'
    },
    enableNamed: '启用 {name}',
    noDescription: '没有描述。',
    skippedTools: '1 个工具因定义有误被略过 | {n} 个工具因定义有误被略过',
    details: '工具与详情',
    restart: '重启',
    edit: '编辑',
    remove: '删除',
    removeTitle: '删除服务器',
    removeConfirm: '删除服务器“{name}”？其保存的密钥也会一并删除。',
    notRunning: '服务器未运行，无法列出其工具、提示词和资源。',
    panelTabs: '服务器详情',
    tabs: { tools: '工具', prompts: '提示词', resources: '资源', logs: '错误输出' },
    logs: { empty: '服务器没有写入任何错误输出。', label: '服务器错误输出的最后几行' },
    oauth: {
      label: 'OAuth',
      signedIn: '已登录',
      signedOut: '未登录',
      signIn: '登录',
      signOut: '退出登录',
      hint: '登录时会连接服务器，并在浏览器中打开它的登录页面。'
    },
    form: {
      addTitle: '添加 MCP 服务器',
      editTitle: '编辑 {name}',
      name: '名称',
      icon: '图标',
      type: '类型',
      description: '描述',
      command: '命令',
      args: '参数',
      argsHint: '每行一个参数。',
      cwd: '工作文件夹（可选）',
      env: '环境变量',
      envHint:
        '除这些之外，服务器只获得登录 shell 的 PATH 和你环境中的一小部分（主目录、语言、工具链目录，以及在“设置 › 权限”中允许的变量名）；$NAME 也只在这部分中展开。',
      url: 'URL',
      headers: '请求头',
      timeout: '请求超时（秒）',
      timeoutInvalid: '超时至少为 1 秒。',
      enabled: '启用',
      secretsHint: '看起来像密钥或令牌的值会保存在系统密钥库中，之后以掩码显示。',
      addRow: '添加',
      removeRow: '删除第 {n} 行',
      rowName: '{field}：第 {n} 个名称',
      rowValue: '{field}：第 {n} 个值',
      show: '显示',
      hide: '隐藏',
      showRow: '显示第 {n} 个值',
      hideRow: '隐藏第 {n} 个值',
      stored: '已保存',
      valuePlaceholder: '值',
      slug: '短名称',
      slugHint:
        '由字母和数字组成，可用单个“-”或“_”连接。模型看到的此服务器工具名为 {example}；留空时根据服务器 ID 生成。',
      slugWarning: '修改后，模型看到的此服务器所有工具都会改名。进行中的对话仍可继续。'
    },
    import: {
      open: '导入 JSON',
      title: '从 JSON 导入服务器',
      label: '服务器配置',
      hint: '粘贴 Claude Desktop 等应用使用的“mcpServers”对象，其中的每个服务器都会被添加。',
      submit: '导入',
      imported: '已导入 {n} 个服务器。',
      skipped: '已跳过“{name}”：{reason}'
    },
    export: {
      open: '导出 JSON',
      title: '导出服务器',
      label: '配置（密钥已掩码）',
      copy: '复制',
      copied: '已复制到剪贴板。',
      copyFailed: '无法复制，请手动选中文本复制。'
    },
    tools: {
      exposedAs: '模型看到的名称',
      nameFlags: {
        invalid_chars: '模型 API 不接受的字符已被替换。',
        shortened: '已截断为 64 个字符。',
        deduplicated: '已添加后缀以保持唯一。'
      },
      filter: '筛选工具',
      none: '此服务器没有提供工具。',
      enabled: '启用',
      autoApprove: '自动批准',
      enableNamed: '启用工具 {name}',
      autoApproveNamed: '运行 {name} 时不再询问',
      readOnly: '只读',
      destructive: '破坏性',
      try: '试用',
      hideTry: '收起',
      noParams: '此工具没有参数。',
      required: '必填',
      errors: {
        required: '必填。',
        number: '请输入数字。',
        integer: '请输入整数。',
        json: '请输入有效的 JSON。'
      },
      run: '运行',
      running: '正在运行…',
      needsApproval: '与在对话中一样，此次调用需要你的批准。',
      allowAlways: '始终允许 {pattern} 并运行',
      allowOnce: '仅允许本次并运行',
      resultError: '工具报告了错误。',
      emptyResult: '工具没有返回内容。',
      imageAlt: '工具返回的第 {n} 张图片',
      audio: '音频（{mime}）',
      structured: '结构化结果'
    },
    prompts: {
      none: '此服务器没有提供提示词。',
      get: '获取提示词',
      roles: { user: '用户', assistant: '助手' }
    },
    resources: {
      none: '此服务器没有提供资源。',
      templates: '模板',
      pick: '选择一个资源以读取。',
      binary: '二进制内容，{n} 字节。'
    }
  }
} satisfies typeof en
