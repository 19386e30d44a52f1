// 对话中的轮次检查点 (#19)。
export default {
  checkpoints: {
    filesChanged: '改动了 1 个文件 | 改动了 {n} 个文件',
    modified: '已修改',
    created: '新建',
    changedLater: '之后的轮次也改动了其中一些文件：撤销本轮也会撤销那些改动。',
    revertTurn: '撤销本轮',
    reverted: '已撤销：{restored} 个文件恢复为本轮之前的状态。',
    revertedBefore: '本轮已被撤销。',
    restoreBefore: '将文件恢复到此消息之前',
    restoreConfirm: '把对话从这里起改动的所有文件恢复原样？',
    restore: '恢复',
    restored: '已恢复 {n} 个文件。',
    skipped: '以下文件保持原样，未跟随链接：{files}',
    skipReason: {
      outside_workspace: '在工作区之外',
      link: '现在是链接或硬链接，或位于已变成链接的文件夹中',
      not_a_file: '已不是普通文件',
      failed: '系统拒绝了操作'
    },
    showDiff: '显示或隐藏差异',
    noDiff: {
      too_large: '无差异可显示：文件过大，未保留。',
      binary: '无差异可显示：文件不是文本。',
      not_followed: '无差异可显示：文件现在是链接或在工作区之外，未读取。'
    },
    notKept: {
      too_large: '由命令改动；文件过大未保留，撤销时保持原样',
      binary: '由命令改动；非文本文件未保留，撤销时保持原样'
    }
  }
}
