/** 输入框：附件、/ 与 @ 菜单、对话参数、助手、提示词、快捷键。 */
export default {
  composer: {
    attach: '添加附件',
    attachHint: '图片、PDF、Word、Excel、CSV、文本和代码——也可以粘贴或拖放到这里',
    dropHere: '松开以添加附件',
    remove: '移除 {name}',
    uploading: '正在上传 {name}',
    kinds: {
      image: '图片',
      pdf: 'PDF',
      docx: 'Word',
      spreadsheet: 'Excel',
      csv: 'CSV',
      text: '文本'
    },
    noVision: '{model} 无法识别图片：附带的图片不会发送给它。请选择支持视觉的模型。',
    refusals: {
      tooMany: '每条消息最多 {max} 个文件。',
      tooLarge: '{name} 为 {size} MB，上限为 {limit} MB。',
      imageTooLarge: '{name} 为 {size} MB，图片上限为 {limit} MB。',
      empty: '{name} 是空文件。'
    },
    waitForUploads: '请等待附件上传完成',
    offline: '连接已断开——消息会保留在这里，连接恢复后即可发送。',
    offlineButton: '离线',
    slash: {
      label: '提示词',
      saved: '已保存的提示词',
      mcp: 'MCP 提示词',
      empty: '没有匹配的提示词。可在 设置 › 提示词 中保存。'
    },
    mention: {
      label: 'MCP 资源',
      resources: '资源',
      templates: '资源模板',
      empty: '没有匹配的 MCP 资源。'
    },
    fields: {
      promptTitle: '填写“{name}”',
      templateTitle: '打开“{name}”',
      insert: '插入',
      attach: '附加',
      required: '必填'
    },
    params: {
      button: '参数',
      title: '指令与参数',
      scopeChat: '仅对本对话生效，从下一次请求开始。',
      scopeNew: '用于新对话。',
      systemPrompt: '系统提示词',
      systemPromptPlaceholder: '模型在本对话中应如何表现',
      temperature: '温度',
      topP: 'Top-p',
      maxTokens: '最大输出 token 数',
      reasoningEffort: '推理强度',
      modelDefault: '模型默认',
      efforts: { minimal: '最低', low: '低', medium: '中', high: '高' },
      save: '应用',
      reset: '全部重置',
      saved: '已应用'
    },
    assistant: {
      label: '助手',
      none: '不使用助手'
    },
    shortcuts: {
      title: '键盘快捷键',
      newChat: '新对话',
      search: '搜索对话',
      settings: '设置',
      stop: '停止生成',
      editLastMessage: '编辑上一条消息（输入框为空时）',
      findInChat: '在此聊天中查找',
      copyLastAnswer: '复制最后一条回答',
      focusComposer: '聚焦输入框',
      showShortcuts: '显示键盘快捷键'
    }
  },
  settingsLibrary: {
    promptsNav: '提示词',
    assistantsNav: '助手',
    prompts: {
      title: '提示词',
      intro: "已保存的提示词可在输入框中用 / 插入。写 {'{{'}name{'}}'} 表示插入时要填写的值。",
      add: '新建提示词',
      name: '名称（/ 匹配的内容）',
      description: '描述',
      body: '提示词',
      variables: '变量：{list}',
      empty: '还没有保存的提示词。',
      save: '保存',
      cancel: '取消',
      edit: '编辑',
      delete: '删除',
      saved: '已保存'
    },
    assistants: {
      title: '助手',
      intro: '助手是一组命名的系统提示词、模型、参数和工具，可用来开始新对话。',
      defaultsTitle: '新对话的默认设置',
      defaultsIntro: '未选择助手的新对话使用这些指令和参数。',
      add: '新建助手',
      name: '名称',
      description: '描述',
      systemPrompt: '系统提示词',
      model: '模型',
      anyModel: '由对话自行选择',
      disabledTools: '关闭的内置工具',
      disabledMcpServers: '关闭的 MCP 服务器',
      empty: '还没有助手。',
      save: '保存',
      cancel: '取消',
      edit: '编辑',
      delete: '删除',
      saved: '已保存'
    }
  }
}
