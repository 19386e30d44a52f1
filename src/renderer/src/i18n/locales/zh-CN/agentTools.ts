import type en from '../en-US/agentTools'

export default {
  settingsAgentTools: {
    nav: '智能体工具',
    title: '智能体工具',
    subtitle: '新对话中智能体可以使用的内置工具。',
    saved: '已保存',
    readOnly: '只读',
    changesThings: '会修改内容',
    enableNamed: '启用 {name}',
    servers: {
      filesystem: '文件与命令',
      core: '智能体',
      tape: '对话历史',
      memory: '记忆',
      skills: '技能',
      deepchat_settings: '对话设置',
      image_generation: '图像',
      subagents: '子智能体'
    },
    descriptions: {
      read: '读取文件或其中一部分。',
      write: '创建或覆盖文件。',
      edit: '替换文件中的文本。',
      glob: '按名称模式查找文件。',
      grep: '搜索文件内容（ripgrep）。',
      exec: '运行 shell 命令。',
      process: '查看或停止后台命令。',
      deepchat_question: '向你提出选择题。',
      update_plan: '显示并更新分步计划。',
      tape_search: '搜索本对话的历史。',
      tape_context: '完整读取历史条目及其前后内容。',
      tape_info: '显示本对话历史的大小。',
      tape_anchors: '列出本对话历史中最新的锚点。',
      memory_remember: '记住信息，供以后的对话使用。',
      memory_recall: '查找以前记住的内容。',
      memory_forget: '忘记一条记住的内容。',
      skill_list: '列出智能体可用的技能。',
      skill_view: '读取一个技能。',
      deepchat_settings_read: '读取本对话的设置。',
      deepchat_settings_set_model: '将本对话切换到其他模型。',
      deepchat_settings_set_temperature: '设置本对话的温度。',
      deepchat_settings_set_system_prompt: '替换本对话的系统提示词。',
      deepchat_settings_set_permission_mode: '收紧本对话的权限模式。',
      deepchat_settings_set_tools: '为本对话开启或关闭内置工具。',
      image_generate: '根据文字提示生成图像。',
      subagent_orchestrator: '把工作交给子对话中的子智能体。'
    }
  }
} satisfies typeof en
