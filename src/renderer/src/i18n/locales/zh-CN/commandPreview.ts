// 命令审批卡片上的预览（#32）：在沙箱中对工作区副本运行。
export default {
  commandPreview: {
    title: '预览',
    previewing: '正在沙箱中对工作区副本进行预览（无网络）…',
    explain: '已在沙箱中对工作区副本运行，无网络。目前尚未做任何更改。',
    limits: '限制：{seconds} 秒、{size}、{files} 个文件、每路输出 {chars} 个字符',
    exitCode: '退出码 {code}',
    noExitCode: '无退出码',
    timedOut: '已在时间限制（{seconds} 秒）处停止',
    duration: '{seconds} 秒',
    sizeExceeded: '已停止：写入超出了大小限制（{size}）',
    noChanges: '不会有文件发生变化。',
    changes: '将变化的文件（{n}）',
    omitted: '另有 {n} 项变化未列出（批准后同样会应用）',
    change: {
      created: '新建',
      changed: '修改',
      deleted: '删除'
    },
    kind: {
      folder: '文件夹',
      link: '链接 → {target}',
      binary: '二进制，{before} → {after}',
      too_large: '过大无法显示，{before} → {after}'
    },
    protectedEntry: '受保护：之后运行的程序可能会读取它',
    showDiff: '显示差异',
    hideDiff: '隐藏差异',
    stdout: '输出',
    stderr: '错误',
    outputDropped: '另有 {n} 个字符未显示',
    refused: '预览中尝试但被拒绝的操作',
    refusedKind: {
      network: '网络',
      outside_write: '写入工作区之外'
    },
    onApprove: {
      apply: '若工作区在此期间未变化，批准将原样应用这些更改；否则将真正运行该命令。',
      run: '批准将真正运行该命令：{reason}。'
    },
    runReason: {
      refused: '预览未能完成它尝试的全部操作',
      timed_out: '预览达到了时间限制',
      size_limit: '预览写入的数据超出了大小限制',
      protected: '它会写入 .git 或其他受保护条目，而预览中这些条目是只读的',
      left_running: '它会留下仍在运行的进程，预览无法保留这些进程',
      workspace_changed: '预览之后工作区发生了变化',
      unfinished: '预览尚未完成'
    },
    unavailable: '无预览：{reason}。批准将真正运行该命令。',
    unavailableReason: {
      no_sandbox: '本机没有沙箱',
      not_supported: '此处无法预览',
      workspace_too_large: '工作区超出了预览的大小限制',
      background: '后台命令没有结束，无法预览',
      not_exec: '只预览 exec 命令',
      failed: '预览失败'
    },
    failed: '无法加载预览：{error}'
  }
}
