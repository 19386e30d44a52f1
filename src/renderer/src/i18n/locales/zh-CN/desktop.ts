export default {
  desktop: {
    update: {
      ready: 'DeepChat Desk {version} 已可安装。',
      restart: '重启以更新',
      restartFailed: '无法重启：{message}'
    },
    deepLink: {
      addTitle: '通过链接添加 MCP 服务器？',
      addWarning:
        '一个链接请求添加以下服务器。本地服务器会以你的权限在这台电脑上运行它的命令。只有在你信任链接来源时才添加。',
      command: '运行',
      url: '连接到',
      env: '环境变量',
      headers: '请求头（值已隐藏）',
      autoApproveDropped: '该链接还要求某些工具无需询问即可运行；链接永远不能授予这一点——由你逐个工具决定。',
      skipped: '此链接中无法使用的项',
      cancel: '取消',
      add: '添加服务器',
      added: '已添加：{names}',
      nothingAdded: '没有添加任何内容。',
      close: '关闭',
      failed: '无法添加：{message}',
      invalidTitle: '无法使用此链接',
      ok: '确定'
    },
    settings: {
      autoUpdate: '自动更新',
      autoUpdateHint: '启动时及每隔几小时检查新版本，在后台下载，并提示重启。',
      updateOff: {
        development: '开发版本中不进行更新。',
        unsupported: '此安装方式无法自动更新；请从发布页面安装新版本。'
      },
      shortcut: '显示窗口的快捷键',
      shortcutHint: '在任何应用中都可使用，例如 CommandOrControl+Shift+D。留空表示不使用。',
      shortcutSave: '保存',
      shortcutSaved: '快捷键已保存。',
      shortcutCleared: '快捷键已移除。',
      shortcutProblem: '未生效：{problem}'
    }
  }
}
