// The preview of a command on its approval card (#32): run in the sandbox on a copy of the workspace.
export default {
  commandPreview: {
    title: 'Preview',
    previewing: 'Previewing in the sandbox on a copy of the workspace, without network…',
    explain: 'Ran in the sandbox on a copy of the workspace, without network. Nothing has changed yet.',
    limits: 'Limits: {seconds} s, {size}, {files} files, {chars} characters of output per stream',
    exitCode: 'Exit code {code}',
    noExitCode: 'No exit code',
    timedOut: 'Stopped at the time limit ({seconds} s)',
    duration: '{seconds} s',
    sizeExceeded: 'Stopped: it wrote more than the size limit ({size})',
    noChanges: 'No files would change.',
    changes: 'Files it would change ({n})',
    omitted: '{n} more changes not listed (approving applies them too)',
    change: {
      created: 'created',
      changed: 'changed',
      deleted: 'deleted'
    },
    kind: {
      folder: 'folder',
      link: 'link → {target}',
      binary: 'binary, {before} → {after}',
      too_large: 'too large to show, {before} → {after}'
    },
    protectedEntry: 'protected: programs run later may read it',
    showDiff: 'Show diff',
    hideDiff: 'Hide diff',
    stdout: 'Output',
    stderr: 'Errors',
    outputDropped: '{n} more characters not shown',
    refused: 'Tried and refused in the preview',
    refusedKind: {
      network: 'network',
      outside_write: 'write outside the workspace'
    },
    onApprove: {
      apply:
        'Approving applies exactly these changes, if the workspace has not changed meanwhile; otherwise the command runs for real.',
      run: 'Approving runs the command for real: {reason}.'
    },
    runReason: {
      refused: 'the preview could not do everything it tried',
      timed_out: 'the preview hit its time limit',
      size_limit: 'the preview wrote more than its size limit',
      protected: 'it writes .git or another protected entry, which the preview keeps read-only',
      left_running: 'it leaves processes running, which the preview could not keep',
      workspace_changed: 'the workspace changed since the preview',
      unfinished: 'the preview has not finished'
    },
    unavailable: 'No preview: {reason}. Approving runs the command for real.',
    unavailableReason: {
      no_sandbox: 'this machine has no sandbox',
      not_supported: 'previews are not available here',
      workspace_too_large: 'the workspace is over the preview’s size limit',
      background: 'a background command has no end to preview',
      not_exec: 'only exec commands are previewed',
      failed: 'the preview failed'
    },
    failed: 'The preview could not be loaded: {error}'
  }
}
