import type en from '../en-US/permissions'

export default {
  settingsPermissions: {
    nav: '权限',
    title: '权限',
    subtitle: '智能体无需询问即可执行的操作，以及你让它记住的决定。',
    defaultMode: '新对话的默认模式',
    defaultModeHint: '每个对话仍可单独修改自己的模式。',
    modes: {
      default: {
        label: '操作前询问',
        hint: '只读命令在沙箱中运行；会改动内容的命令、受保护文件和工具先询问。MCP 工具同样会询问（包括只读工具），除非已在本对话中允许或有规则允许。'
      },
      accept_edits: {
        label: '自动接受编辑',
        hint: '还可直接编辑工作区内的文件，并在沙箱中运行只改动工作区文件的命令；其余仍会询问。MCP 工具同样会询问（包括只读工具），除非已在本对话中允许或有规则允许。'
      },
      sandboxed: {
        label: '沙箱内自动',
        hint: '任何命令都在沙箱中直接运行：工作区可写（受保护文件除外），无网络。仅在需要网络、写入外部或受保护文件时询问。MCP 工具同样会询问（包括只读工具），除非已在本对话中允许或有规则允许。'
      },
      full_access: {
        label: '完全访问',
        hint: '从不询问，但拒绝规则依然生效。仅在可以承受损失的文件夹中使用。'
      }
    },
    sandbox: {
      on: '沙箱已启用',
      off: '无沙箱',
      kinds: {
        bwrap: '无需询问即运行的命令在沙箱中运行（bubblewrap）',
        seatbelt: '无需询问即运行的命令在沙箱中运行（macOS 沙箱）'
      },
      onHint: '它们只能只读地看到工作区和系统，看不到你的主文件夹、应用数据或密钥，也没有网络。',
      none: '无需询问即运行的命令没有沙箱',
      offHint:
        '只有命令分类器在把关，“沙箱内自动”会像“自动接受编辑”一样询问。{reason} 在 Linux 上请安装 bubblewrap（apt install bubblewrap）并重启应用。',
      reasons: {
        seatbelt_missing: '缺少 macOS 沙箱（sandbox-exec）。',
        unsupported_platform: '{platform} 上没有可用的沙箱。',
        bwrap_missing: '未安装 bubblewrap（bwrap）。',
        bwrap_broken: 'bubblewrap 在此无法运行（用户命名空间可能已关闭）：{detail}'
      },
      socketGuards: {
        seccomp:
          'Unix 套接字：由 seccomp 过滤器拒绝。任何本地服务的套接字（Docker、SSH 代理、数据库）都无法连接，工作区内也不能创建套接字。',
        seatbelt:
          'Unix 套接字：由 macOS 沙箱配置拒绝。任何本地服务的套接字都无法连接，工作区内也不能创建套接字。',
        none: 'Unix 套接字：本机未防护（bubblewrap 无法加载 seccomp 过滤器）。命令可能连接到本地服务的套接字，例如 Docker 的。'
      }
    },
    environment: {
      title: '环境变量',
      hint: '命令、MCP 服务器和智能体只获得你环境中的一小部分：PATH、HOME、语言、终端、时区和工具链目录（Go、Rust、Java、Node、Python、Ruby），其余变量对它们都不存在。在这里添加变量名即可一并传递；只保存名称。服务器或智能体还会获得在其自身设置中填写的变量。',
      none: '没有额外传递的变量。',
      name: '变量名',
      add: '允许',
      removeNamed: '停止传递 {name}',
      added: '从下一次命令或服务器启动起传递 {name}。',
      removed: '不再传递 {name}。',
      invalid: '“{name}”不是有效的变量名（字母、数字和 _，且不以数字开头）。',
      warning:
        '命令可以打印它获得的任何变量，其输出会发送给模型。只有在允许模型看到时才添加密钥和令牌。常见的添加：使用代理时的 HTTP_PROXY / HTTPS_PROXY / NO_PROXY，通过 SSH agent 使用 git 时的 SSH_AUTH_SOCK。'
    },
    saved: '已保存',
    rules: '已记住的规则',
    rulesHint: '在选择“始终允许”或“始终拒绝”时创建。拒绝规则优先于允许规则。',
    noRules: '没有已记住的规则。',
    effect: '效果',
    scope: '范围',
    pattern: '匹配模式',
    created: '创建时间',
    actions: '操作',
    effects: { allow: '允许', deny: '拒绝' },
    kinds: {
      read: '读取文件',
      write: '写入文件',
      exec: '运行命令',
      mcp: 'MCP 工具',
      settings: '设置工具',
      network: '网页（域名）'
    },
    patternExamples: {
      read: '~/notes/**',
      write: '~/projects/app/**',
      exec: 'npm test*',
      mcp: 'github/*',
      settings: '工具名称',
      network: 'example.com（含子域名）'
    },
    revoke: '撤销',
    revokeNamed: '撤销规则 {pattern}',
    revoked: '规则已撤销。',
    addRule: '添加规则',
    added: '规则已添加。'
  },
  /** Permission reasons by code; params fill the braces. */
  permissionReasons: {
    git_runs_programs: 'git {option} 可能让 git 运行其他程序',
    git_writes_file: 'git {sub} 会写入文件',
    git_deletes: 'git {sub} 会执行删除',
    git_force_push: '强制推送会改写远程仓库',
    git_network: 'git {sub} 会连接远程仓库',
    git_reset_hard: 'git reset --hard 会丢弃改动',
    git_discards_changes: 'git {sub} 会丢弃工作区中的改动',
    git_deletes_history: 'git {sub} 会删除文件或历史记录',
    git_writes_repository: 'git {sub} 会写入仓库（.git）',
    git_config_write: 'git config 会修改可指定 git 之后运行哪些程序的设置',
    package_install: '{program} {sub} 会下载并运行安装脚本',
    package_runs_code: '{program} {sub} 会运行项目代码',
    sed_in_place: 'sed -i 会直接修改文件',
    sed_script_file: 'sed 会运行脚本文件',
    sed_unsafe_script: '这个 sed 脚本可能写入文件或运行命令',
    find_delete: 'find -delete 会删除文件',
    find_exec: 'find -exec 会运行其他命令',
    find_writes: 'find 会写入文件',
    tail_follow: 'tail -f 不会自行结束',
    interactive_pager: '交互式分页程序',
    option_runs_program: '{program} {option} 会运行其他程序',
    option_writes_file: '{program} {option} 会写入文件',
    paths_from_input: '{program} {option} 会读取运行时才知道的路径',
    follows_links: '{program} {option} 会跟随符号链接，可能指向工作区之外',
    changes_system: '{program} {option} 会修改系统设置',
    archive_extract: '{program} 会解压归档，其中的链接可能指向任何位置',
    env_dump: '{program} 会显示环境变量，其中可能含有密钥',
    xargs_input: 'xargs 从输入中获取参数，要到运行时才知道',
    env_split_string: 'env -S 会在运行时把字符串拆成命令',
    destructive_program: '{program} 会删除或终止某些东西',
    network_program: '{program} 会访问网络',
    network_program_writes: '{program} 会访问网络并写入文件',
    interpreter: '{program} 会运行任意代码',
    unknown_program: '{program} 不是已知的只读命令',
    loader_variable: '设置了 {name}，会改变实际运行的程序',
    dynamic_program: '程序名要到运行时才能确定',
    eval_code: '{program} 会运行在运行时拼出的代码',
    pipe_to_interpreter: '把文本通过管道交给 {program} 执行',
    dynamic_argument: '有参数要到运行时才能确定',
    cd_previous: 'cd - 会进入一个运行时才知道的文件夹',
    elevated: '{program} 会以提升的权限运行',
    sensitive_write: '写入敏感文件：{path}',
    broad_write: '修改整个顶层文件夹：{path}',
    outside_read: '读取工作区之外的内容：{path}',
    outside_destructive: '删除或修改工作区之外的内容：{path}',
    outside_write: '写入工作区之外的位置：{path}',
    redirect_output: '将输出重定向到 {target}',
    protected_write: '写入 {entry} 中的 {path}，它配置了之后会运行的程序',
    protected_git_dir: '写入 git 目录 {entry} 中的 {path}，其配置和钩子之后可以运行程序',
    protected_git_creation: '写入 {path} 会使 {entry} 成为 git 目录，其配置之后可能运行程序',
    protected_git_reads: '写入 {entry} 中的 {path}，git 会通过仓库配置读取或运行它',
    protected_config_unreadable: '写入 {entry} 中的 {path}，该仓库的 git 配置无法读取',
    protected_link_target: '写入 {path}，受保护条目 {entry} 链接到它',
    dynamic_tilde: '{word} 指向一个运行时才知道的文件夹',
    unexpandable_word: '{word} 展开后的词或文件太多，无法逐一检查',
    subshell: '运行子 shell',
    command_substitution: '使用了命令替换',
    process_substitution: '使用了进程替换',
    shell_function: '定义了 shell 函数',
    coprocess: '启动了协进程',
    cwd_outside: '在工作区之外运行',
    parse_error: '这行命令无法完整解析：{message}',
    background: '在后台运行命令',
    no_command: '无法识别出任何命令',
    secret_variable: '展开了 {name}，它看起来是密钥',
    indirect_expansion: '{text} 会展开一个运行时才确定的变量',
    cdpath: '设置了 CDPATH，cd 可能进入任何位置',
    command_may_change: '该命令可能会修改内容',
    outside_sandbox: '请求在沙箱之外运行，拥有你对文件和网络的访问权限',
    outside_workspace_read: '读取工作区之外的文件：{paths}',
    outside_workspace_write: '写入工作区之外的文件：{paths}',
    protected_path:
      '修改受保护的工作区条目（git、编辑器、direnv 或 DeepChat 的配置可能让程序稍后自动运行）：{paths}',
    app_data: '访问 DeepChat Desk 自身的数据文件夹（数据库、日志、其他对话）：{paths}',
    secrets_file: 'DeepChat Desk 的密钥文件，任何工具都不能读取或修改：{paths}',
    unresolvable_path: '无法确定 {paths} 的真实位置（{error}），按工作区之外处理',
    change_setting: '更改设置 {setting}：{summary}',
    mcp_call: '调用服务器 {server} 上的 MCP 工具 {tool}',
    web_fetch_domain: '从 {host} 读取网页'
  },
  /** Joins several translated reasons in one line. */
  permissionReasonSeparator: '；'
} satisfies typeof en
