// 设置 › 技能 (#19)。
export default {
  settingsSkills: {
    nav: '技能',
    title: '技能',
    subtitle: '对话在任务需要时可加载的说明。关闭的技能不会提供给对话。',
    folder: '技能文件夹的绝对路径（含 SKILL.md）',
    add: '从文件夹添加',
    added: '已添加技能 {name}。',
    view: '查看',
    hide: '收起',
    enabled: '向对话提供 {name}',
    sources: { builtin: '内置', app: '你的', workspace: '工作区' }
  }
}
