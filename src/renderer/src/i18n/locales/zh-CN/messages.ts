// 消息渲染、工具结果、导出 / 备份与历史搜索
export default {
  dataBackup: {
    title: '备份与恢复',
    includeSecrets: '包含 API 密钥等机密信息',
    secretsWarning:
      '任何拿到该归档的人都能使用这些密钥，请妥善保管。（桌面版密钥按本机加密，换机后可能无法使用。）',
    backUp: '备份全部数据',
    saved: '备份已保存到 {path}',
    restoreLabel: '恢复备份文件夹中的备份（填写列表中的路径；其他文件请上传）',
    restore: '恢复…',
    confirm: '恢复会用备份中的内容替换全部对话、设置和技能，且无法撤销。是否继续？',
    replace: '替换我的数据',
    cancel: '取消',
    restartToFinish: '备份已就绪：重启应用以完成恢复。',
    downloaded: '备份已下载（主机上也保留一份：{path}）。',
    download: '下载',
    upload: '上传备份以恢复…',
    uploadHint:
      '由“备份”生成的 .tar.gz 归档，或每日数据库副本（.db）。在询问是否替换数据之前会先检查它；主机重启后此页面会自动重新加载。',
    uploadChecked: '{name} 是可读取的备份。请在下方确认，用它替换你的数据。',
    restarting: '备份已就绪：应用正在重启以完成恢复。',
    autoTitle: '自动备份',
    autoHint: '每天把数据库（对话、设置）复制到备份文件夹，并保留这么多天。填 0 则关闭。',
    autoDays: '保留天数',
    folder: '备份文件夹',
    folderHint: '绝对路径；留空表示 {default}。',
    save: '保存',
    saved2: '已保存。',
    list: '文件夹中的备份',
    none: '还没有备份。',
    kind: { database: '每日数据库副本', archive: '全部数据' },
    restoreThis: '恢复…'
  },
  storage: {
    damaged: '数据库已损坏（{reason}），已移到 {path}。应用已使用一个空数据库启动。',
    latestBackup: '最近的备份：{path}',
    restoreLatest: '恢复最近的备份',
    noBackup: '没有可恢复的备份。',
    dismiss: '关闭'
  },
  chatExport: {
    menu: '导出…',
    format: { markdown: 'Markdown（.md）', html: '网页（.html）', json: 'JSON，可再导入（.json）' },
    importTitle: '导入对话',
    importHint: '以 JSON 导出的对话会作为新对话导入，消息保持不变。',
    importButton: '选择 JSON 导出文件…',
    importNotes: '对话已导入；部分附件只保留了名称：',
    openImported: '打开导入的对话'
  },
  toolResult: {
    image: '工具返回的图片',
    enlarge: '查看原图',
    bytes: '{n} 字节',
    showText: '显示文本',
    structured: '结构化结果',
    unsupported: '无法显示的 {type} 内容',
    openFailed: '无法打开链接'
  },
  rich: {
    preview: '预览'
  }
}
