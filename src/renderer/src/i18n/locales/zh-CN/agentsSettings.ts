// 设置 › 智能体：随设置页加载。
export default {
  settingsAgents: {
    shippedDescriptions: {
      'claude-acp': 'Anthropic 的 Claude Code，通过其 ACP 适配器运行。',
      'codex-acp': 'OpenAI 的 Codex CLI，通过其 ACP 适配器运行。',
      gemini: 'Google 的 Gemini CLI，ACP 模式。',
      'qwen-code': 'Qwen Code，ACP 模式。',
      'github-copilot-cli': 'GitHub Copilot 的 CLI，ACP 模式。',
      cline: 'Cline 的 CLI，ACP 模式。',
      auggie: 'Augment Code 的 CLI，ACP 模式。',
      qoder: 'Qoder 的 CLI，ACP 模式。',
      dimcode: 'DimCode，ACP 模式。',
      kilo: 'Kilo Code 的 CLI，ACP 模式。',
      'factory-droid': 'Factory 的 Droid，作为 ACP 守护进程运行。',
      grok: 'xAI 的 Grok 智能体，通过 stdio 通信。',
      'pi-acp': 'Pi 编程智能体，通过其 ACP 适配器运行。',
      'deepagents-acp': 'LangChain Deep Agents，通过 ACP 运行。',
      'glm-acp-agent': '一个基于 GLM 的编程智能体，通过 ACP 运行。',
      nova: 'Compass Nova，ACP 模式。',
      dirac: 'Dirac 的 CLI，ACP 模式。',
      'fast-agent': 'fast-agent，通过 ACP 运行（Python，经由 uvx）。',
      'minion-code': 'Minion Code，ACP 模式（Python，经由 uvx）。',
      opencode: 'OpenCode，ACP 模式（需先安装）。',
      goose: 'Block 的 Goose，ACP 模式（需先安装）。',
      kimi: 'Moonshot 的 Kimi CLI，ACP 模式（需先安装）。',
      cursor: 'Cursor 的智能体 CLI，ACP 模式（需先安装）。',
      devin: 'Devin 的 CLI，ACP 模式（需先安装）。',
      vtcode: 'VT Code，ACP 模式（需先安装）。'
    },
    nav: '智能体',
    title: '智能体',
    subtitle:
      '外部编程智能体（ACP）：可作为对话的模型，也可承接子智能体任务。它们的文件、命令和工具请求都经过你的权限设置。',
    add: '添加智能体',
    empty: '还没有智能体。',
    enableNamed: '启用 {name}',
    sources: { registry: '内置', custom: '自定义' },
    install: {
      installed: '已安装',
      on_demand: '首次启动时下载',
      missing: '未找到',
      checking: '检查中…',
      recheck: '重新检查'
    },
    running: '在 {count} 个文件夹中运行',
    idle: '未运行',
    lastError: '最近的错误',
    stderr: '错误输出',
    env: '环境变量',
    log: '协议日志',
    stop: '停止',
    edit: '编辑',
    remove: '删除',
    removeTitle: '删除智能体',
    removeConfirm: '删除智能体“{name}”？其保存的密钥以及各对话的会话都会被遗忘。',
    form: {
      addTitle: '添加智能体',
      editTitle: '编辑 {name}',
      name: '名称',
      description: '描述',
      command: '命令',
      args: '参数',
      argsHint:
        "每行一个参数。任何通过 stdio 使用 ACP 的程序都可以，例如 npx 加 -y 和 {'@'}zed-industries/claude-code-acp。",
      env: '环境变量',
      keyPlaceholder: '名称'
    },
    envDialog: {
      title: '{name} 的环境变量',
      hint: '在智能体自身的环境之上设置。名称看起来像密钥的值保存在密钥存储中，并以掩码显示。',
      label: '覆盖项',
      saved: '已保存。智能体会在下一条消息时以这些设置重新启动。'
    },
    logDialog: {
      title: '{name} 的协议日志',
      hint: '应用与智能体之间最近的消息，密钥已隐去。新消息会实时出现。',
      empty: '暂无内容。智能体运行时日志才会出现。',
      directions: { out: '发出', in: '收到' }
    }
  }
}
