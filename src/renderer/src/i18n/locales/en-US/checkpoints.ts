// Turn checkpoints in the chat (#19).
export default {
  checkpoints: {
    filesChanged: '1 file changed | {n} files changed',
    modified: 'modified',
    created: 'created',
    changedLater: 'A later turn changed some of these files too: reverting this turn also undoes that.',
    revertTurn: 'Revert this turn',
    reverted: 'Reverted: {restored} file(s) put back as before this turn.',
    revertedBefore: 'This turn was reverted.',
    restoreBefore: 'Restore files to before this',
    restoreConfirm: 'Put back every file the chat changed from here on?',
    restore: 'Restore',
    restored: 'Restored {n} file(s).',
    skipped: 'Left as they are, not followed: {files}',
    skipReason: {
      outside_workspace: 'outside the workspace',
      link: 'now a link or a hard link, or inside a folder that became a link',
      not_a_file: 'no longer a regular file',
      failed: 'the system refused'
    },
    showDiff: 'Show or hide the diff',
    noDiff: {
      too_large: 'No diff: the file is too big to keep.',
      binary: 'No diff: the file is not text.',
      not_followed: 'No diff: the file is now a link or outside the workspace, so it was not read.'
    },
    notKept: {
      too_large: 'changed by a command; too big to keep, a revert leaves it as it is',
      binary: 'changed by a command; not text, a revert leaves it as it is'
    }
  }
}
