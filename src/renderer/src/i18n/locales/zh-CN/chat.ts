import type en from '../en-US/chat'

export default {
  chat: {
    welcomeTitle: '有什么可以帮你？',
    welcomeBody: '与模型对话，使用 MCP 服务器提供的工具，让智能体处理你的文件。',
    noProvider: '请先在设置中添加模型服务商。',
    openSettings: '打开设置',
    messagesLabel: '对话',
    generating: '正在生成…',
    waiting: '等待模型响应…',
    waitingFor: '等待模型响应… {seconds} 秒',
    waitingStop: '停止',
    waitingRetry: '停止并重试',
    jumpToLatest: '跳到最新',
    backToParent: '返回主对话',
    cancel: '取消',
    copyCode: '复制',
    copied: '已复制',
    copyFailed: '复制失败',
    image: { alt: '模型生成的图片', open: '查看大图' },
    dialogCounter: '第 {n} 个，共 {total} 个',
    status: { running: '运行中', error: '失败', cancelled: '已取消', done: '完成' },
    user: { edit: '编辑', editLabel: '编辑你的消息', resend: '重新发送' },
    toolbar: {
      copy: '复制',
      retry: '重试',
      fork: '从这里分叉',
      usage: '输入 {input} · 输出 {output}（token）',
      delete: '删除',
      deleteLabel: '删除这条消息',
      deleteTurnLabel: '删除这条消息及其回答'
    },
    variants: {
      label: '第 {index} 个版本，共 {count} 个',
      previous: '上一个版本',
      next: '下一个版本'
    },
    deleted: { message: '消息已删除', messages: '已删除 {n} 条消息', undo: '撤销' },
    reasoning: { thinking: '思考中 {n} 秒…', thought: '思考了 {n} 秒' },
    tool: { arguments: '参数', result: '结果' },
    toolsDeferred:
      '此对话有 {total} 个 MCP 工具，超过每次请求发送的上限 {limit} 个：模型现在通过工具搜索查找所需的工具。',
    plan: {
      title: '计划 · 已完成 {done}/{total}',
      pending: '待办',
      in_progress: '进行中',
      completed: '已完成',
      ended: {
        aborted: '计划完成前本轮已被停止。',
        max_steps: '计划完成前本轮已达到步数上限。',
        error: '计划完成前本轮出错。'
      }
    },
    subagent: {
      open: '打开子智能体对话：{name}',
      tasks: '子智能体任务',
      status: {
        queued: '排队中',
        running: '运行中',
        waiting_permission: '等待授权',
        waiting_question: '等待回答',
        completed: '完成',
        error: '失败',
        cancelled: '已取消',
        timeout: '已超时'
      }
    },
    errors: {
      user_cancelled: '已停止',
      interrupted: '已中断',
      provider_error: '服务商返回了错误',
      no_model_response: '模型没有返回内容',
      context_overflow: '对话过长，超出该模型的上下文',
      tool_call_limit: '本轮工具调用次数过多',
      repeated_tool_call: '模型反复进行相同的工具调用',
      internal: '出现了问题',
      unreadable_block: '此消息的一部分无法显示',
      storage: '应用无法写入数据文件夹',
      category: {
        rate_limited: '服务商正在限制请求频率',
        overloaded: '服务商当前负载过高',
        server: '服务商内部出错',
        auth: '服务商拒绝了该 API 密钥',
        bad_request: '服务商拒绝了该请求',
        context_too_long: '对话过长，超出该模型的上下文',
        network: '无法连接到服务商',
        timeout: '服务商响应超时',
        no_response: '模型没有返回任何内容'
      },
      hint: {
        rate_limited: '请稍候再重试。',
        overloaded: '对方服务器繁忙，请稍后重试。',
        server: '问题出在对方，重试通常可以解决。',
        auth: '请在设置中检查密钥。',
        bad_request: '对方返回的信息：',
        context_too_long: '请新建对话，或选择上下文更长的模型。',
        network: '请检查网络连接或服务商地址，然后重试。',
        timeout: '请重试；若反复出现，模型可能过慢或卡住了。',
        no_response:
          '在服务商的空闲超时内没有收到任何内容。请重试；本地模型较慢时，可在服务商设置中调高超时。'
      },
      openSettings: '打开服务商设置',
      stopped: '已停止',
      retrying: '{category} — {seconds} 秒后重试（第 {attempt}/{max} 次）',
      retryingNow: '{category} — 正在重试（第 {attempt}/{max} 次）'
    },
    action: {
      permission: {
        pending: '等待授权运行 {tool}',
        allow_once: '已允许 {tool} 一次',
        allow_session: '已在本对话中允许 {tool}',
        allow_always: '已始终允许 {tool}',
        allow_server_session: '已在本对话中允许 {tool} 及其服务器的所有工具',
        allow_server_always: '已始终允许 {tool} 及其服务器的所有工具',
        deny: '已拒绝 {tool}'
      },
      question: {
        pending: '提问：{question}',
        answered: '提问：{question} — 回答：{answer}',
        skipped: '提问：{question} — 已跳过'
      }
    },
    input: {
      label: '消息',
      placeholder: '输入问题 — Enter 发送，Shift+Enter 换行',
      blockedPlaceholder: '请先处理待回应的请求',
      send: '发送',
      stop: '停止',
      model: '模型',
      pickModel: '选择模型',
      noModels: '没有模型',
      permissionMode: '权限模式',
      workspace: '工作目录',
      workspacePlaceholder: '临时文件夹——或输入绝对路径',
      scratch: '临时',
      scratchHint: '此对话在自己的临时文件夹中工作：{path}',
      tools: '工具',
      toolsScope: '尚未开始对话：这些开关修改的是整个应用中所有对话的默认设置。',
      toolsTitleApp: '所有对话的工具（默认）',
      toolsTitleSession: '此对话的工具',
      toolsBadgeApp: '所有对话',
      toolsBadgeSession: '此对话',
      agentTools: '内置工具',
      mcpServers: 'MCP 服务器',
      noMcpServers: '尚未配置 MCP 服务器。',
      fullAccessWarning: '完全访问：智能体可在任何位置执行命令、修改文件，不再询问。',
      fullAccessConfirmTitle: '为此对话开启完全访问？',
      fullAccessConfirmBody: '从下一次请求起，此对话中的智能体可在任何位置执行命令、修改文件，不再询问你。',
      fullAccessConfirm: '开启完全访问',
      chooseFolder: '选择文件夹…',
      chooseFolderTitle: '此对话的工作目录',
      toolsScopeSession: '这些开关只对此对话生效，从下一次请求起应用。',
      offeredCount: '模型在此对话中可用 {n} 个工具。 | 模型在此对话中可用 {n} 个工具。',
      offeredDeferred: '{n} 个 MCP 工具过多无法全部发送：模型通过 tool_search 查找它们。',
      serverToolCount: '{n} 个工具 | {n} 个工具',
      toolGroups: {
        'agent-filesystem': '文件与命令',
        'agent-core': '智能体',
        'agent-tape': '会话历史',
        'agent-skills': '技能',
        'agent-memory': '记忆',
        'deepchat-settings': '对话设置',
        'agent-image-generation': '图像生成',
        'agent-subagents': '子智能体',
        'agent-web': '网络搜索',
        'agent-knowledge': '知识库'
      },
      mcpState: { starting: '启动中', running: '运行中', error: '出错', stopped: '已停止' },
      notOffered: {
        unavailable: '此对话中不可用',
        perChatOnly: '新对话中默认关闭：请在对话中开启',
        serverOff: '已在 设置 › MCP 中关闭',
        notRunning: '运行后才提供工具'
      },
      settingsErrors: {
        invalid_folder: '无法使用该文件夹：请输入一个已存在文件夹的绝对路径。',
        path_not_picked: '请重新选择该文件夹：只能使用在此处选择的文件夹。',
        pick_expired: '该文件夹选择已过期或已被使用：请重新选择文件夹。',
        path_changed: '该文件夹在选择后发生了变化：请重新选择。',
        invalid_workspace: '无法使用该文件夹：请输入一个已存在文件夹的绝对路径。',
        invalid_model: '该模型不可用。请在 设置 › 模型服务商 中启用它，或选择其他模型。',
        invalid_permission_mode: '子智能体对话的权限不能超过其父对话。'
      }
    },
    permissionMode: {
      default: '操作前询问',
      accept_edits: '自动接受编辑',
      sandboxed: '沙箱内自动',
      full_access: '完全访问'
    },
    risk: { low: '低风险', medium: '中风险', high: '高风险', critical: '极高风险' },
    permission: {
      title: '需要授权',
      fromSubagent: '来自子智能体 {name} 的请求',
      tool: '工具',
      server: '服务',
      risk: '风险',
      command: '命令',
      cwd: '目录：{cwd}',
      outside: '工作目录之外：{path}',
      paths: '文件',
      alwaysRule: '“始终允许”将保存规则 {kind}：{pattern}',
      runsOnHost: '若允许，它将在沙箱之外运行，拥有你对文件和网络的全部访问权限。',
      criticalNoAlways: '严重风险：只能允许一次或在本对话中允许，不能始终允许。',
      unreadable: '无法读取此请求。',
      deny: '拒绝',
      allowOnce: '允许一次',
      allowSession: '在本对话中允许',
      allowAlways: '始终允许'
    },
    question: {
      title: '问题',
      options: '选项',
      custom: '自定义回答',
      skip: '跳过',
      submit: '回答'
    },
    elicitation: {
      title: '{server} 请求填写信息',
      accept: '提交',
      decline: '拒绝'
    },
    sampling: {
      title: '{server} 请求使用模型',
      systemPrompt: '系统提示词',
      role: { user: '用户', assistant: '助手' },
      maxTokens: '最多回答 {n} 个 token',
      respondWith: '使用模型',
      reject: '拒绝',
      approve: '运行并发送'
    },
    queue: { label: '排队中的消息', queued: '排队中', withNext: '将随你的下一条消息一起发送' },
    sidebar: {
      search: '搜索所有对话',
      searchPlaceholder: '搜索历史…',
      noHits: '没有找到',
      clearSearch: '清除搜索',
      rename: '重命名',
      renameLabel: '新标题',
      pin: '置顶',
      unpin: '取消置顶',
      delete: '删除',
      deleteTitle: '删除此对话？',
      deleteBody: '“{title}”及其子智能体对话将被永久删除。',
      generating: '工作中',
      waiting: '等待你的回应',
      groups: {
        pinned: '已置顶',
        today: '今天',
        yesterday: '昨天',
        week: '过去 7 天',
        older: '更早',
        all: '对话'
      },
      sortLabel: '对话排序',
      sort: { activity: '最近活动', created: '创建时间', title: '标题' }
    }
  }
} satisfies typeof en
